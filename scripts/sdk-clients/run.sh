#!/usr/bin/env bash
# run.sh — run the official SDKs' clients (python_client.py on the Python `mcp` SDK,
# ts_client.mjs on @modelcontextprotocol/sdk) against an MCP server over stdio and over
# Streamable HTTP, four runs in all, and fail when any step of any run fails (issue 13).
#
# Usage (from anywhere; the repository is found from this script's path):
#
#   scripts/sdk-clients/run.sh                 # the example server: cargo build -p mcpwire-server
#                                          #   --example mcp_server, then its binary (stdio) and
#                                          #   `... --http 127.0.0.1:{port}` (HTTP)
#   scripts/sdk-clients/run.sh --everything    # smoke test of the clients against
#                                          #   @modelcontextprotocol/server-everything
#   scripts/sdk-clients/run.sh [--profile example|everything] \
#       [--http-command 'SERVER --listen 127.0.0.1:{port}'] [--http-path /mcp] -- SERVER ARGS...
#
# Options:
#   --profile P        what the clients expect (see the header of either client); default example
#   --http-command T   shell command that serves Streamable HTTP; {port} becomes a free port on
#                      127.0.0.1; the endpoint is http://127.0.0.1:{port}{path}
#   --http-path PATH   the endpoint's path (default /mcp)
#   --no-http          stdio only;  --no-stdio: HTTP only
#   -- SERVER ARGS...  the stdio server command (needed with --http-command unless --no-stdio)
#
# Environment:
#   MCPWIRE_INTEROP_DIR  cache dir for the clients (default /tmp/mcpwire-interop): a venv with
#                        the Python SDK, an npm prefix with the TypeScript SDK (and
#                        server-everything for --everything)
#   MCP_PY_SPEC          pip requirement of the Python SDK (default "mcp", the newest)
#   MCP_TS_SPEC          npm spec of the TypeScript SDK (default "@modelcontextprotocol/sdk")
#   SKIP_INSTALL=1       use the cache dir as it is
#   STARTUP_TIMEOUT      seconds an HTTP server may take to listen (default 60)
#   CLIENT_TIMEOUT       seconds per request inside the clients (default 30)
#
# Each client prints one PASS/FAIL/SKIP line per step; this script prints a summary line per run
# and exits 0 only when all four runs passed (1 otherwise, 2 on a usage or install error).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE="$ROOT/scripts/sdk-clients"
DIR=$(realpath -m "${MCPWIRE_INTEROP_DIR:-/tmp/mcpwire-interop}")
STARTUP_TIMEOUT=${STARTUP_TIMEOUT:-60}
CLIENT_TIMEOUT=${CLIENT_TIMEOUT:-30}
# shellcheck source=scripts/real-servers/lib.sh
source "$ROOT/scripts/real-servers/lib.sh"

usage() {
    echo "run.sh: $1" >&2
    echo "usage: run.sh [--everything] [--profile P] [--http-command T] [--http-path P] [--no-http|--no-stdio] [-- SERVER ARGS...]" >&2
    exit 2
}

profile=example
http_command=
http_path=/mcp
everything=0
do_stdio=1
do_http=1
server=()
while [ $# -gt 0 ]; do
    case $1 in
    --everything) everything=1 profile=everything ;;
    --profile) [ $# -ge 2 ] || usage "--profile needs a value"; profile=$2; shift ;;
    --http-command) [ $# -ge 2 ] || usage "--http-command needs a value"; http_command=$2; shift ;;
    --http-path) [ $# -ge 2 ] || usage "--http-path needs a value"; http_path=$2; shift ;;
    --no-http) do_http=0 ;;
    --no-stdio) do_stdio=0 ;;
    --) shift; server=("$@"); break ;;
    *) usage "unknown argument $1" ;;
    esac
    shift
done

VENV="$DIR/venv"
NPM="$DIR/npm"
mkdir -p "$DIR"

if [ -z "${SKIP_INSTALL:-}" ]; then
    step "installing the Python SDK (${MCP_PY_SPEC:-mcp}) into $VENV"
    if ! { [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"; } ||
        ! timed "$DIR/install-python.log" timeout -k 10 900 "$VENV/bin/pip" install --quiet \
            --disable-pip-version-check --upgrade "${MCP_PY_SPEC:-mcp}"; then
        echo "installing the Python SDK failed: see $DIR/install-python.log" >&2
        exit 2
    fi
    packages=("${MCP_TS_SPEC:-@modelcontextprotocol/sdk}")
    [ $everything = 1 ] && packages+=(@modelcontextprotocol/server-everything)
    step "installing ${packages[*]} into $NPM"
    mkdir -p "$NPM"
    if ! timed "$DIR/install-npm.log" timeout -k 10 900 npm install --prefix "$NPM" --no-audit \
        --no-fund --loglevel=error "${packages[@]}"; then
        echo "installing the TypeScript SDK failed: see $DIR/install-npm.log" >&2
        exit 2
    fi
fi

if [ $everything = 1 ]; then
    everything_js="$NPM/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
    server=(node "$everything_js" stdio)
    http_command="env PORT={port} $(quote node "$everything_js") streamableHttp"
elif [ ${#server[@]} = 0 ] && [ -z "$http_command" ]; then
    step "building the example server (cargo build -p mcpwire-server --example mcp_server)"
    (cd "$ROOT" && timed "$DIR/build-example.log" cargo build -p mcpwire-server --example mcp_server) ||
        { echo "building the example failed: see $DIR/build-example.log" >&2; exit 2; }
    example="$ROOT/target/debug/examples/mcp_server"
    server=("$example")
    http_command="$(quote "$example") --http 127.0.0.1:{port}"
fi
[ $do_stdio = 0 ] || [ ${#server[@]} -gt 0 ] || usage "no stdio server command (give it after --, or --no-stdio)"
[ $do_http = 0 ] || [ -n "$http_command" ] || usage "no --http-command (or give --no-http)"

clients=(python ts)
client_command() {
    case $1 in
    python) printf '%s\n' "$VENV/bin/python" "$HERE/python_client.py" ;;
    ts) printf '%s\n' node "$HERE/ts_client.mjs" ;;
    esac
}
export MCP_INTEROP_NODE_MODULES="$NPM/node_modules"

declare -a summary=()
failed=0
# run_client CLIENT TRANSPORT ARGS...: one client run; records its outcome.
run_client() {
    local client=$1 transport=$2 rc started
    shift 2
    local cmd
    mapfile -t cmd < <(client_command "$client")
    step "$client client, $transport"
    started=$(now)
    timeout -k 10 600 "${cmd[@]}" --profile "$profile" --timeout "$CLIENT_TIMEOUT" "$@" </dev/null
    rc=$?
    if [ $rc = 0 ]; then
        summary+=("PASS $client $transport ($(elapsed "$started")s)")
    else
        summary+=("FAIL $client $transport (exit $rc, $(elapsed "$started")s)")
        failed=1
    fi
}

for client in "${clients[@]}"; do
    if [ $do_stdio = 1 ]; then
        run_client "$client" stdio -- "${server[@]}"
    fi
    if [ $do_http = 1 ]; then
        port=$(free_port)
        serve=${http_command//\{port\}/$port}
        log="$DIR/$client-http-server.log"
        pid=$(start_server "$serve" "$log")
        if wait_for_port "$port" "$pid" "$STARTUP_TIMEOUT"; then
            run_client "$client" http --url "http://127.0.0.1:$port$http_path"
        else
            summary+=("FAIL $client http (the server did not listen on 127.0.0.1:$port within ${STARTUP_TIMEOUT}s; see $log)")
            failed=1
        fi
        stop_server "$pid"
    fi
done

echo
printf '%s\n' "${summary[@]}"
exit $failed
