#!/usr/bin/env bash
# Walks real MCP servers with mcpwire-client (issue 31's interop proof; not CI: it installs from
# npm and PyPI): `crates/mcpwire-client/examples/walk` lists every page of tools, resources,
# templates and prompts, calls every tool with arguments made from its input schema, reads every
# resource and one instance of every template, gets every prompt, and answers the sampling,
# elicitation and roots requests the server sends (see the example's docs).
#
#   scripts/client-interop/run.sh [RUN...]
#
# Runs (all by default):
#   ts-everything-stdio      @modelcontextprotocol/server-everything (npm), stdio
#   ts-everything-http       the same, Streamable HTTP (`streamableHttp`, PORT=…)
#   ts-everything-http-2026  the same, asked for 2026-07-28 (it falls back to `initialize`)
#   py-v2-stdio              scripts/client-interop/python_server.py on PyPI `mcp>=2`, stdio
#   py-v2-http               the same, Streamable HTTP
#   py-v2-http-2026          the same, asked for 2026-07-28
#   example-stdio            crates/mcpwire-server/examples/mcp_server.rs, stdio, 2025-11-25
#   example-stdio-2026       the same, 2026-07-28 (`server/discover`)
#   example-http             the same, Streamable HTTP with sessions, 2025-11-25
#   example-http-2026        the same, `--stateless`, 2026-07-28
#   conformance-http         crates/mcpwire-server/examples/conformance.rs, HTTP, 2025-11-25
#   conformance-http-2026    the same, `--stateless`, 2026-07-28
#
# Environment:
#   MCPWIRE_CLIENT_INTEROP_DIR  installs and reports (default /tmp/mcpwire-client-interop;
#                               never inside the repository)
#   SKIP_INSTALL=1              use what is installed there
#   NODE                        the node binary (default `node`; server-everything needs ≥ 20)
#   WALK_TIMEOUT                seconds one call may take (default 30); a run is bounded by
#                               RUN_TIMEOUT (default 300)
#
# Each run writes $DIR/reports/<run>.txt (the walk's report; the server's stderr in .log). At the
# end a Markdown table (run, server, transport, version negotiated, items, ok, tool errors,
# server errors, failures, violations, server asks answered) is printed, and also written to
# $DIR/reports/table.md. Exit status: 0 when every run walked its server without a client
# failure, 1 otherwise.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DIR=$(realpath -m "${MCPWIRE_CLIENT_INTEROP_DIR:-/tmp/mcpwire-client-interop}")
OUT="$DIR/reports"
NODE=${NODE:-node}
WALK_TIMEOUT=${WALK_TIMEOUT:-30}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
STARTUP_TIMEOUT=${STARTUP_TIMEOUT:-60}
# shellcheck source=scripts/real-servers/lib.sh
source "$ROOT/scripts/real-servers/lib.sh"

case "$DIR" in
"$ROOT" | "$ROOT"/*)
    echo "MCPWIRE_CLIENT_INTEROP_DIR must be outside the repository ($ROOT)" >&2
    exit 2
    ;;
esac
ALL_RUNS=(ts-everything-stdio ts-everything-http ts-everything-http-2026 py-v2-stdio py-v2-http py-v2-http-2026
    example-stdio example-stdio-2026 example-http example-http-2026 conformance-http
    conformance-http-2026)
if [ $# -gt 0 ]; then
    for name in "$@"; do
        [[ " ${ALL_RUNS[*]} " == *" $name "* ]] || {
            echo "unknown run '$name' (known: ${ALL_RUNS[*]})" >&2
            exit 2
        }
    done
    RUNS=("$@")
else
    RUNS=("${ALL_RUNS[@]}")
fi
mkdir -p "$DIR/logs" "$OUT"

NPM="$DIR/npm"
EVERYTHING="$NPM/node_modules/.bin/mcp-server-everything"
VENV="$DIR/py-mcp-v2"
PY_SERVER="$ROOT/scripts/client-interop/python_server.py"
status=0

# --- build the walk and our servers ----------------------------------------------------------
TARGET=$(cd "$ROOT" && cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
step "building the walk and the example servers (cargo build, debug)"
if ! (cd "$ROOT" && timed "$DIR/logs/build.log" cargo build -p mcpwire-client --example walk &&
    timed "$DIR/logs/build-servers.log" cargo build -p mcpwire-server --features http \
        --example mcp_server --example conformance); then
    echo "the build failed: see $DIR/logs/build*.log" >&2
    exit 1
fi
WALK="$TARGET/debug/examples/walk"
EXAMPLE="$TARGET/debug/examples/mcp_server"
CONFORMANCE="$TARGET/debug/examples/conformance"

# --- install the servers ---------------------------------------------------------------------
if [ -z "${SKIP_INSTALL:-}" ]; then
    if [[ " ${RUNS[*]} " == *" ts-"* ]]; then
        step "installing @modelcontextprotocol/server-everything (npm)"
        mkdir -p "$NPM"
        timed "$DIR/logs/install-npm.log" npm install --prefix "$NPM" --no-audit --no-fund \
            --loglevel=error @modelcontextprotocol/server-everything || status=1
    fi
    if [[ " ${RUNS[*]} " == *" py-"* ]]; then
        step "installing mcp>=2 (PyPI) in $VENV"
        { [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"; } &&
            timed "$DIR/logs/install-pip.log" "$VENV/bin/pip" install --quiet \
                --disable-pip-version-check --upgrade 'mcp>=2' || status=1
    fi
fi

# --- the runs --------------------------------------------------------------------------------
# run_stdio NAME VERSION COMMAND...: the walk against COMMAND as a child process.
run_stdio() {
    local name=$1 version=$2
    shift 2
    step "$name: walk --protocol $version -- $(quote "$@")"
    timeout -k 10 "$RUN_TIMEOUT" "$WALK" --protocol "$version" --timeout "$WALK_TIMEOUT" -- "$@" \
        >"$OUT/$name.txt" 2>"$OUT/$name.log" </dev/null
    report "$name" $?
}

# run_http NAME VERSION COMMAND: starts the (quoted) COMMAND, which serves PORT (the caller put
# "$port" in it), then walks http://127.0.0.1:PORT/mcp.
run_http() {
    local name=$1 version=$2 command=$3 port=$4 pid rc
    step "$name: $command; walk --protocol $version http://127.0.0.1:$port/mcp"
    pid=$(start_server "$command" "$OUT/$name.log")
    if ! wait_for_port "$port" "$pid" "$STARTUP_TIMEOUT"; then
        echo "    the server did not listen on $port: see $OUT/$name.log" >&2
        stop_server "$pid"
        printf 'walk: transport=http version=- items=0 failures=1 (the server did not start)\n' \
            >"$OUT/$name.txt"
        status=1
        return
    fi
    timeout -k 10 "$RUN_TIMEOUT" "$WALK" --protocol "$version" --timeout "$WALK_TIMEOUT" \
        "http://127.0.0.1:$port/mcp" >"$OUT/$name.txt" 2>>"$OUT/$name.log" </dev/null
    rc=$?
    stop_server "$pid"
    report "$name" "$rc"
}

# report NAME EXIT: says how the run went.
report() {
    grep -E '^(FAIL|walk:)' "$OUT/$1.txt" | sed 's/^/    /' >&2
    case $2 in
    0) ;;
    124 | 137) echo "    TIMEOUT after ${RUN_TIMEOUT}s" >&2 && status=1 ;;
    *) echo "    exit $2" >&2 && status=1 ;;
    esac
}

for name in "${RUNS[@]}"; do
    port=$(free_port)
    case $name in
    ts-everything-stdio) run_stdio "$name" 2025-11-25 "$NODE" "$EVERYTHING" stdio ;;
    ts-everything-http)
        run_http "$name" 2025-11-25 "$(quote env "PORT=$port" "$NODE" "$EVERYTHING" streamableHttp)" "$port"
        ;;
    ts-everything-http-2026)
        run_http "$name" 2026-07-28 "$(quote env "PORT=$port" "$NODE" "$EVERYTHING" streamableHttp)" "$port"
        ;;
    py-v2-stdio) run_stdio "$name" 2025-11-25 "$VENV/bin/python" "$PY_SERVER" ;;
    py-v2-http) run_http "$name" 2025-11-25 "$(quote "$VENV/bin/python" "$PY_SERVER" http "$port")" "$port" ;;
    py-v2-http-2026) run_http "$name" 2026-07-28 "$(quote "$VENV/bin/python" "$PY_SERVER" http "$port")" "$port" ;;
    example-stdio) run_stdio "$name" 2025-11-25 "$EXAMPLE" ;;
    example-stdio-2026) run_stdio "$name" 2026-07-28 "$EXAMPLE" ;;
    example-http) run_http "$name" 2025-11-25 "$(quote "$EXAMPLE" --http "127.0.0.1:$port")" "$port" ;;
    example-http-2026)
        run_http "$name" 2026-07-28 "$(quote "$EXAMPLE" --http "127.0.0.1:$port" --stateless)" "$port"
        ;;
    conformance-http)
        run_http "$name" 2025-11-25 "$(quote "$CONFORMANCE" --http "127.0.0.1:$port")" "$port"
        ;;
    conformance-http-2026)
        run_http "$name" 2026-07-28 "$(quote "$CONFORMANCE" --http "127.0.0.1:$port" --stateless)" "$port"
        ;;
    esac
done

# --- the table -------------------------------------------------------------------------------
python3 - "$OUT" "${RUNS[@]}" <<'PY' | tee "$OUT/table.md"
import re, sys
out, runs = sys.argv[1], sys.argv[2:]
print("| run | server | transport | version | items | ok | tool errors | server errors | failures | violations | asks answered |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for run in runs:
    try:
        line = next(l for l in open(f"{out}/{run}.txt") if l.startswith("walk:"))
    except (OSError, StopIteration):
        line = "walk: failures=1"
    f = dict(re.findall(r"(\w+)=(\S+)", line))
    g = lambda k: f.get(k, "-")
    print(f"| {run} | {g('server')} | {g('transport')} | {g('version')} | {g('items')} | {g('ok')} "
          f"| {g('tool_errors')} | {g('server_errors')} | {g('failures')} | {g('violations')} | {g('asks')} |")
PY
exit $status
