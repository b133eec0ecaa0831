#!/usr/bin/env bash
# check-real-servers.sh — run `mcpwire check` against real MCP servers of the official SDKs and
# print a markdown table of the results (issue 12's README table). A maintainer runs it by hand;
# it is never part of CI (it installs from npm, PyPI and crates.io and takes minutes).
#
# Usage (from anywhere; the repository is found from this script's path):
#
#   scripts/check-real-servers.sh                    # install, build, check every server
#   scripts/check-real-servers.sh rmcp py-time       # only these servers (names below)
#   SKIP_INSTALL=1 scripts/check-real-servers.sh     # reuse what the cache dir already holds
#   scripts/real-servers/summarize.py "$OUT"         # print the table again from saved reports
#
# Servers (name: what, at which version; transports). The npm packages run on Node 22 from the
# npm package `node@22`, installed beside them:
#   ts-everything           @modelcontextprotocol/server-everything 2026.8.31 (npm); stdio, HTTP
#   ts-filesystem           @modelcontextprotocol/server-filesystem 2026.8.31 (npm); stdio
#   ts-memory               @modelcontextprotocol/server-memory 2026.8.31 (npm); stdio
#   ts-sequential-thinking  @modelcontextprotocol/server-sequential-thinking 2026.8.31 (npm); stdio
#   ts-sdk                  scripts/real-servers/ts_sdk_server.mjs, one tool on the TypeScript SDK
#                           @modelcontextprotocol/sdk 1.32.2 (npm); stdio, HTTP
#   py-fastmcp-v1           six-line FastMCP server, Python SDK `mcp==1.30.0` (PyPI); stdio, HTTP
#   py-mcpserver-v2         six-line MCPServer server, Python SDK `mcp==2.3.0` (PyPI); stdio, HTTP
#   py-time                 mcp-server-time 2026.10.19 (PyPI); stdio
#   py-fetch                mcp-server-fetch 2026.10.24 (PyPI); stdio
#   rmcp                    benches/rmcp-server, one tool on rmcp 3.11.0 (crates.io, pinned by
#                           its Cargo.lock); stdio, HTTP
# The versions are those of README's table; NPM_SERVERS_VERSION, TS_SDK_VERSION, PY_V1, PY_V2,
# PY_TIME and PY_FETCH (pip requirements) change them.
#
# Environment:
#   MCPWIRE_REAL_SERVERS_DIR  cache dir for the installs (default /tmp/mcpwire-real-servers);
#                             never inside the repository
#   OUT                       where the JSON reports, logs and manifest.jsonl go
#                             (default $MCPWIRE_REAL_SERVERS_DIR/reports; the chosen servers'
#                             files and the manifest are replaced, nothing else is touched)
#   MCPWIRE_BIN               an mcpwire binary to use instead of building
#                             `cargo build --release -p mcpwire-cli` (target/release/mcpwire)
#   CASES, SEED               generated cases and seed (default 100 and 0)
#   TIMEOUT                   `mcpwire check --timeout` in seconds (default 5, the checker's)
#   RUNS                      which runs (default `envelope all`): `envelope` is
#                             `--capabilities --cases $CASES`, `all` is `--no-fixed --cases 0
#                             --all` (issue 47's table); each over stdio and, where the server
#                             has it, HTTP
#   TOOLS_SERVERS             servers that get the `all` runs (default every server; `--all`
#                             calls the server's tools, prompts and resources, each call bounded
#                             by the checker's --tool-timeout)
#   SKIP_INSTALL=1            skip npm/pip/cargo installs (a missing server is then reported)
#   RUN_TIMEOUT               seconds one `mcpwire check` run may take (default 600)
#   INSTALL_TIMEOUT           seconds one install step may take (default 900)
#   STARTUP_TIMEOUT           seconds an HTTP server may take to listen (default 60)
#
# Each check is `mcpwire check --capabilities --cases $CASES --seed $SEED --format json` over
# stdio and, where the server has it, Streamable HTTP (the server is started on a free port for
# each run, waited for on 127.0.0.1, and stopped after; every server listens on 127.0.0.1 only:
# server-everything, which has no host option, gets scripts/real-servers/loopback.cjs preloaded).
# Reports: $OUT/<server>-<transport>.json (the checker's stderr in .log, an HTTP server's output
# in -http-server.log); a server of TOOLS_SERVERS also gets `mcpwire check --no-fixed --cases 0
# --all --seed $SEED` over stdio and HTTP ($OUT/<server>-tools.json and -http-tools.json,
# transports `stdio --all` and `http --all`); one line per run in $OUT/manifest.jsonl (server,
# version, transport, exit status, seconds, the command that reproduces the row from the
# repository root). The table is
# printed by scripts/real-servers/summarize.py. Exit status: 0 when every install and run
# completed (whatever the checker found), 1 when some install failed or some run could not check
# its server (checker exit 2 or a timeout).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR=$(realpath -m "${MCPWIRE_REAL_SERVERS_DIR:-/tmp/mcpwire-real-servers}")
OUT=$(realpath -m "${OUT:-$DIR/reports}")
CASES=${CASES:-100}
SEED=${SEED:-0}
TIMEOUT=${TIMEOUT:-5}
RUNS=${RUNS:-envelope all}
NPM_SERVERS_VERSION=${NPM_SERVERS_VERSION:-2026.8.31}
TS_SDK_VERSION=${TS_SDK_VERSION:-1.32.2}
PY_V1=${PY_V1:-mcp==1.30.0}
PY_V2=${PY_V2:-mcp==2.3.0}
PY_TIME=${PY_TIME:-mcp-server-time==2026.10.19}
PY_FETCH=${PY_FETCH:-mcp-server-fetch==2026.10.24}
RUN_TIMEOUT=${RUN_TIMEOUT:-600}
INSTALL_TIMEOUT=${INSTALL_TIMEOUT:-900}
STARTUP_TIMEOUT=${STARTUP_TIMEOUT:-60}
# shellcheck source=scripts/real-servers/lib.sh
source "$ROOT/scripts/real-servers/lib.sh"

case "$DIR" in
"$ROOT" | "$ROOT"/*)
    echo "MCPWIRE_REAL_SERVERS_DIR must be outside the repository ($ROOT)" >&2
    exit 2
    ;;
esac
ALL_SERVERS=(ts-everything ts-filesystem ts-memory ts-sequential-thinking ts-sdk py-fastmcp-v1
    py-mcpserver-v2 py-time py-fetch rmcp)
TOOLS_SERVERS=${TOOLS_SERVERS:-${ALL_SERVERS[*]}}
for run in $RUNS; do
    [[ $run == envelope || $run == all ]] || {
        echo "unknown run '$run' in RUNS (known: envelope all)" >&2
        exit 2
    }
done
if [ $# -gt 0 ]; then
    for name in "$@"; do
        [[ " ${ALL_SERVERS[*]} " == *" $name "* ]] || {
            echo "unknown server '$name' (known: ${ALL_SERVERS[*]})" >&2
            exit 2
        }
    done
    SERVERS=("$@")
else
    SERVERS=("${ALL_SERVERS[@]}")
fi
wanted() { [[ " ${SERVERS[*]} " == *" $1 "* ]]; }
running() { [[ " $RUNS " == *" $1 "* ]]; }

mkdir -p "$DIR/logs" "$OUT"
# Only the files this run writes are removed: OUT may hold other things.
rm -f "$OUT/manifest.jsonl"
for name in "${SERVERS[@]}"; do
    rm -f "$OUT/$name-stdio.json" "$OUT/$name-stdio.log" "$OUT/$name-http.json" \
        "$OUT/$name-http.log" "$OUT/$name-http-server.log" "$OUT/$name-tools.json" \
        "$OUT/$name-tools.log" "$OUT/$name-http-tools.json" "$OUT/$name-http-tools.log" \
        "$OUT/$name-http-tools-server.log"
done

NPM="$DIR/npm"
NODE_BIN="$NPM/node_modules/.bin"
NODE="$NODE_BIN/node"
RMCP_TARGET="$DIR/rmcp-target"
RMCP_BIN="$RMCP_TARGET/release/rmcp-server"
declare -A INSTALL_FAILED=()
status=0

# --- build the checker -----------------------------------------------------------------------
harness_started=$(now)
if [ -n "${MCPWIRE_BIN:-}" ]; then
    MCPWIRE=$MCPWIRE_BIN
    MCPWIRE_SHOWN=$MCPWIRE_BIN
else
    step "building mcpwire (cargo build --release -p mcpwire-cli)"
    if ! (cd "$ROOT" && timed "$DIR/logs/build-mcpwire.log" cargo build --release -p mcpwire-cli); then
        echo "building mcpwire failed: see $DIR/logs/build-mcpwire.log" >&2
        exit 1
    fi
    MCPWIRE="$ROOT/target/release/mcpwire"
    MCPWIRE_SHOWN=target/release/mcpwire
fi

# --- install the servers ---------------------------------------------------------------------
# install GROUP SERVER... -- COMMAND: runs COMMAND (logged, bounded); on failure the servers are
# reported as not installed.
install() {
    local group=$1
    shift
    local members=()
    while [ "$1" != "--" ]; do
        members+=("$1")
        shift
    done
    shift
    local any=0 m
    for m in "${members[@]}"; do wanted "$m" && any=1; done
    [ $any = 1 ] || return 0
    step "installing $group"
    # The install functions run in a child bash (exported) so that `timeout` bounds them.
    if ! timed "$DIR/logs/install-$group.log" timeout -k 10 "$INSTALL_TIMEOUT" bash -c '"$@"' _ "$@"; then
        echo "  FAILED: see $DIR/logs/install-$group.log" >&2
        for m in "${members[@]}"; do INSTALL_FAILED[$m]="install of $group failed"; done
        status=1
    fi
}

# The install functions run in a child bash (see install), which shellcheck cannot follow.
# shellcheck disable=SC2317
install_npm() {
    local v=$NPM_SERVERS_VERSION
    # `node@22` ships Node 22 through an install script, which npm 11 runs only when the
    # project allows it.
    mkdir -p "$NPM" &&
        printf '%s\n' '{"name": "mcpwire-real-servers", "private": true, "allowScripts": {"node": true}}' \
            >"$NPM/package.json" &&
        (cd "$NPM" && npm install --no-audit --no-fund --loglevel=error node@22 \
            "@modelcontextprotocol/server-everything@$v" "@modelcontextprotocol/server-filesystem@$v" \
            "@modelcontextprotocol/server-memory@$v" "@modelcontextprotocol/server-sequential-thinking@$v" \
            "@modelcontextprotocol/sdk@$TS_SDK_VERSION" zod) &&
        "$NPM/node_modules/.bin/node" --version
}

# install_venv NAME REQUIREMENT...: a venv at $DIR/NAME with the requirements (upgraded).
# shellcheck disable=SC2317
install_venv() {
    local venv="$DIR/$1"
    shift
    { [ -x "$venv/bin/python" ] || python3 -m venv "$venv"; } &&
        "$venv/bin/pip" install --quiet --disable-pip-version-check --upgrade "$@"
}

# shellcheck disable=SC2317
install_rmcp() {
    CARGO_TARGET_DIR="$RMCP_TARGET" cargo build --release \
        --manifest-path "$ROOT/benches/rmcp-server/Cargo.toml"
}

export DIR NPM ROOT RMCP_TARGET NPM_SERVERS_VERSION TS_SDK_VERSION
export -f install_npm install_venv install_rmcp

write_python_servers() {
    mkdir -p "$DIR/python"
    cat >"$DIR/python/server_v1.py" <<'PY'
import sys
from mcp.server.fastmcp import FastMCP

http = sys.argv[1:2] == ["http"]
app = FastMCP("demo", host="127.0.0.1", port=int(sys.argv[2]) if http else 8000)

@app.tool()
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b

if __name__ == "__main__":
    app.run(transport="streamable-http" if http else "stdio")
PY
    cat >"$DIR/python/server_v2.py" <<'PY'
import sys
from mcp.server.mcpserver import MCPServer

app = MCPServer("demo")

@app.tool()
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b

if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:
        app.run(transport="streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        app.run()
PY
}

write_python_servers
mkdir -p "$DIR/fs-root"
if [ -z "${SKIP_INSTALL:-}" ]; then
    install npm ts-everything ts-filesystem ts-memory ts-sequential-thinking ts-sdk -- install_npm
    install py-mcp-v1 py-fastmcp-v1 -- install_venv py-mcp-v1 "$PY_V1"
    install py-mcp-v2 py-mcpserver-v2 -- install_venv py-mcp-v2 "$PY_V2"
    install py-servers py-time py-fetch -- install_venv py-servers "$PY_TIME" "$PY_FETCH"
    install rmcp rmcp -- install_rmcp
fi
installed_at=$(now)

# --- what each server is ---------------------------------------------------------------------
# stdio_command NAME: the server command (shell words, quoted).
stdio_command() {
    case $1 in
    ts-everything) quote "$NODE" "$NODE_BIN/mcp-server-everything" stdio ;;
    ts-filesystem) quote "$NODE" "$NODE_BIN/mcp-server-filesystem" "$DIR/fs-root" ;;
    ts-memory) quote env "MEMORY_FILE_PATH=$DIR/memory.jsonl" "$NODE" "$NODE_BIN/mcp-server-memory" ;;
    ts-sequential-thinking) quote "$NODE" "$NODE_BIN/mcp-server-sequential-thinking" ;;
    ts-sdk) quote env "MCP_SDK_NODE_MODULES=$NPM/node_modules" "$NODE" \
        "$ROOT/scripts/real-servers/ts_sdk_server.mjs" ;;
    py-fastmcp-v1) quote "$DIR/py-mcp-v1/bin/python" "$DIR/python/server_v1.py" ;;
    py-mcpserver-v2) quote "$DIR/py-mcp-v2/bin/python" "$DIR/python/server_v2.py" ;;
    py-time) quote "$DIR/py-servers/bin/mcp-server-time" --local-timezone UTC ;;
    py-fetch) quote "$DIR/py-servers/bin/mcp-server-fetch" ;;
    rmcp) quote "$RMCP_BIN" ;;
    esac
}

# http_command NAME PORT: the command that serves Streamable HTTP on 127.0.0.1:PORT at /mcp
# (nothing for stdio-only servers).
http_command() {
    case $1 in
    ts-everything) quote env "PORT=$2" "$NODE" --require "$ROOT/scripts/real-servers/loopback.cjs" \
        "$NODE_BIN/mcp-server-everything" streamableHttp ;;
    ts-sdk) quote env "MCP_SDK_NODE_MODULES=$NPM/node_modules" "$NODE" \
        "$ROOT/scripts/real-servers/ts_sdk_server.mjs" http "$2" ;;
    py-fastmcp-v1) quote "$DIR/py-mcp-v1/bin/python" "$DIR/python/server_v1.py" http "$2" ;;
    py-mcpserver-v2) quote "$DIR/py-mcp-v2/bin/python" "$DIR/python/server_v2.py" http "$2" ;;
    rmcp) quote "$RMCP_BIN" --http "127.0.0.1:$2" ;;
    esac
}

# version NAME: the installed version of the package behind the server.
version() {
    case $1 in
    ts-sdk) npm_version "$NPM" "@modelcontextprotocol/sdk" ;;
    ts-*) npm_version "$NPM" "@modelcontextprotocol/server-${1#ts-}" ;;
    py-fastmcp-v1) pip_version "$DIR/py-mcp-v1" mcp ;;
    py-mcpserver-v2) pip_version "$DIR/py-mcp-v2" mcp ;;
    py-time) pip_version "$DIR/py-servers" mcp-server-time ;;
    py-fetch) pip_version "$DIR/py-servers" mcp-server-fetch ;;
    rmcp) lock_version "$ROOT/benches/rmcp-server/Cargo.lock" rmcp ;;
    esac
}

# --- the runs --------------------------------------------------------------------------------
CHECK_ARGS=(--capabilities --cases "$CASES" --seed "$SEED" --timeout "$TIMEOUT" --format json)
# `--all`: --capabilities --tools --protocol (issue 47); it calls the server's tools.
TOOLS_ARGS=(--no-fixed --cases 0 --all --seed "$SEED" --timeout "$TIMEOUT" --format json)

# check_stdio NAME VERSION TRANSPORT FILE SERVER ARGS...: one `mcpwire check --stdio ARGS` run of
# the (quoted) SERVER command, its report in $OUT/NAME-FILE.json, recorded as TRANSPORT.
check_stdio() {
    local name=$1 ver=$2 transport=$3 file=$4 server=$5 started rc shown
    shift 5
    shown="$MCPWIRE_SHOWN check --stdio $(quote "$@") -- $server"
    step "$name $transport"
    started=$(now)
    eval "timeout -k 10 $RUN_TIMEOUT $(quote "$MCPWIRE") check --stdio $(quote "$@") -- $server" \
        >"$OUT/$name-$file.json" 2>"$OUT/$name-$file.log" </dev/null
    rc=$?
    record "$name" "$ver" "$transport" "$rc" "$(elapsed "$started")" "$OUT/$name-$file.json" \
        "$OUT/$name-$file.log" "$shown" ""
    note_exit "$rc" || status=1
}

# check_http NAME VERSION TRANSPORT FILE ARGS...: one `mcpwire check --http URL ARGS` run against
# a server started for it on a free port (stopped after), its report in $OUT/NAME-FILE.json.
check_http() {
    local name=$1 ver=$2 transport=$3 file=$4 port serve url shown started pid rc
    shift 4
    port=$(free_port)
    serve=$(http_command "$name" "$port")
    url="http://127.0.0.1:$port/mcp"
    shown="$serve & $MCPWIRE_SHOWN check --http $url $(quote "$@")"
    step "$name $transport ($url)"
    started=$(now)
    pid=$(start_server "$serve" "$OUT/$name-$file-server.log")
    if ! wait_for_port "$port" "$pid" "$STARTUP_TIMEOUT"; then
        stop_server "$pid"
        record "$name" "$ver" "$transport" - "$(elapsed "$started")" "" "" "$shown" \
            "server did not listen on 127.0.0.1:$port within ${STARTUP_TIMEOUT}s (see $OUT/$name-$file-server.log)"
        status=1
        return
    fi
    timeout -k 10 "$RUN_TIMEOUT" "$MCPWIRE" check --http "$url" "$@" \
        >"$OUT/$name-$file.json" 2>"$OUT/$name-$file.log" </dev/null
    rc=$?
    stop_server "$pid"
    record "$name" "$ver" "$transport" "$rc" "$(elapsed "$started")" "$OUT/$name-$file.json" \
        "$OUT/$name-$file.log" "$shown" ""
    note_exit "$rc" || status=1
}

for name in "${SERVERS[@]}"; do
    ver=$(version "$name")
    if [ -n "${INSTALL_FAILED[$name]:-}" ]; then
        record "$name" "$ver" install - "" "" "" "" "${INSTALL_FAILED[$name]}"
        continue
    fi
    all=0
    running all && [[ " $TOOLS_SERVERS " == *" $name "* ]] && all=1
    has_http=0
    [ -n "$(http_command "$name" 0)" ] && has_http=1

    server=$(stdio_command "$name")
    running envelope && check_stdio "$name" "$ver" stdio stdio "$server" "${CHECK_ARGS[@]}"
    [ $all = 1 ] && check_stdio "$name" "$ver" "stdio --all" tools "$server" "${TOOLS_ARGS[@]}"
    [ $has_http = 1 ] || continue
    running envelope && check_http "$name" "$ver" http http "${CHECK_ARGS[@]}"
    [ $all = 1 ] && check_http "$name" "$ver" "http --all" http-tools "${TOOLS_ARGS[@]}"
done

finished=$(now)
echo
python3 "$ROOT/scripts/real-servers/summarize.py" "$OUT"
echo
printf 'Timings: build+install %ss, checks %ss, total %ss.\n' \
    "$(diff_seconds "$harness_started" "$installed_at")" \
    "$(diff_seconds "$installed_at" "$finished")" \
    "$(diff_seconds "$harness_started" "$finished")"
exit $status
