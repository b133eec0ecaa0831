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
#   ts-everything-http       the same, Streamable HTTP (`streamableHttp`, PORT=…; bound to 127.0.0.1
#                            by scripts/real-servers/loopback.cjs, as it has no host option)
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
#   example-https            mcp_server.rs (sessions, 2025-11-25) behind nginx over https: a CA
#                            and a certificate for 127.0.0.1 generated with openssl, HTTP/2 and
#                            HTTP/1.1 offered by ALPN; the walk trusts the CA (--ca-file)
#   example-https-2026       the same, `--stateless`, 2026-07-28
#   ts-everything-https      server-everything's Streamable HTTP behind the same nginx
#
# The https runs need nginx and openssl (Debian's nginx is installed with apt-get when missing);
# the table's transport column says which HTTP versions nginx logged for the walk's requests.
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
    conformance-http-2026 example-https example-https-2026 ts-everything-https)
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
# server-everything's streamableHttp has no host option (app.listen(PORT) binds every interface,
# and it has a get-env tool): preloaded, this makes it bind 127.0.0.1 only.
LOOPBACK="$ROOT/scripts/real-servers/loopback.cjs"
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

# tls_setup: once, a CA and a certificate it issued for 127.0.0.1 and localhost in $TLS
# (openssl), and nginx (apt-get when missing). Fails when either cannot be had.
TLS="$DIR/tls"
tls_setup() {
    [ -f "$TLS/server.pem" ] && command -v nginx >/dev/null && return 0
    if ! command -v nginx >/dev/null; then
        step "installing nginx (apt-get)"
        timed "$DIR/logs/install-nginx.log" apt-get install -y nginx ||
            { apt-get update >/dev/null 2>&1 && timed "$DIR/logs/install-nginx.log" apt-get install -y nginx; } ||
            return 1
    fi
    mkdir -p "$TLS"
    step "generating a CA and a certificate for 127.0.0.1 (openssl) in $TLS"
    {
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
            -subj "/CN=mcpwire client-interop CA" -keyout "$TLS/ca.key" -out "$TLS/ca.pem" \
            -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" &&
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=127.0.0.1" \
                -keyout "$TLS/server.key" -out "$TLS/server.csr" &&
            printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost" "basicConstraints=CA:FALSE" \
                "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" >"$TLS/server.ext" &&
            openssl x509 -req -in "$TLS/server.csr" -CA "$TLS/ca.pem" -CAkey "$TLS/ca.key" \
                -CAcreateserial -days 2 -extfile "$TLS/server.ext" -out "$TLS/server.pem"
    } >"$DIR/logs/tls.log" 2>&1
}

# start_nginx NAME PORT UPSTREAM: nginx serving https on 127.0.0.1:PORT (HTTP/2 and HTTP/1.1 by
# ALPN) before http://127.0.0.1:UPSTREAM, unbuffered (SSE), the client's Host passed on (the
# servers check it); each request's protocol logged in $OUT/NAME.nginx.log. Prints its pid.
start_nginx() {
    local name=$1 conf="$DIR/nginx-$1" user=""
    [ "$(id -u)" = 0 ] && user="user root root;"
    mkdir -p "$conf"
    cat >"$conf/nginx.conf" <<NGINX
$user
worker_processes 1;
daemon off;
pid $conf/nginx.pid;
error_log $conf/error.log warn;
events { worker_connections 256; }
http {
    log_format protocol '\$server_protocol \$ssl_protocol \$request_method \$status';
    access_log $OUT/$name.nginx.log protocol;
    client_body_temp_path $conf/body;
    proxy_temp_path $conf/proxy;
    fastcgi_temp_path $conf/fastcgi;
    uwsgi_temp_path $conf/uwsgi;
    scgi_temp_path $conf/scgi;
    server {
        listen 127.0.0.1:$2 ssl http2;
        ssl_certificate $TLS/server.pem;
        ssl_certificate_key $TLS/server.key;
        location / {
            proxy_pass http://127.0.0.1:$3;
            proxy_http_version 1.1;
            proxy_set_header Host \$http_host;
            proxy_set_header Connection "";
            proxy_buffering off;
            proxy_cache off;
            proxy_read_timeout 300s;
        }
    }
}
NGINX
    start_server "$(quote nginx -p "$conf" -c "$conf/nginx.conf")" "$conf/nginx.out"
}

# run_https NAME VERSION COMMAND PORT: starts the (quoted) COMMAND, which serves PORT over plain
# HTTP, and nginx before it over https, then walks https://127.0.0.1:NGINX_PORT/mcp trusting the
# generated CA.
run_https() {
    local name=$1 version=$2 command=$3 port=$4 front pid nginx_pid rc versions
    if ! tls_setup; then
        echo "    nginx or the certificates could not be had: see $DIR/logs" >&2
        printf 'walk: transport=https version=- items=0 failures=1 (no nginx or no certificate)\n' \
            >"$OUT/$name.txt"
        status=1
        return
    fi
    front=$(free_port)
    step "$name: $command behind nginx; walk --protocol $version --ca-file ca.pem https://127.0.0.1:$front/mcp"
    rm -f "$OUT/$name.nginx.log"
    pid=$(start_server "$command" "$OUT/$name.log")
    nginx_pid=$(start_nginx "$name" "$front" "$port")
    if ! wait_for_port "$port" "$pid" "$STARTUP_TIMEOUT" || ! wait_for_port "$front" "$nginx_pid" 10; then
        echo "    the server or nginx did not listen: see $OUT/$name.log, $DIR/nginx-$name/" >&2
        stop_server "$nginx_pid"
        stop_server "$pid"
        printf 'walk: transport=https version=- items=0 failures=1 (the server did not start)\n' \
            >"$OUT/$name.txt"
        status=1
        return
    fi
    timeout -k 10 "$RUN_TIMEOUT" "$WALK" --protocol "$version" --timeout "$WALK_TIMEOUT" \
        --ca-file "$TLS/ca.pem" "https://127.0.0.1:$front/mcp" >"$OUT/$name.txt" 2>>"$OUT/$name.log" </dev/null
    rc=$?
    stop_server "$nginx_pid"
    stop_server "$pid"
    # The HTTP versions nginx saw go into the summary's transport (https/HTTP/2.0, …).
    versions=$(awk '{print $1}' "$OUT/$name.nginx.log" 2>/dev/null | sort -u | paste -sd+ -)
    sed -i "s|^walk: \(.*\)transport=https |walk: \1transport=https/${versions:-none} |" "$OUT/$name.txt"
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
        run_http "$name" 2025-11-25 "$(quote env "PORT=$port" "$NODE" --require "$LOOPBACK" "$EVERYTHING" streamableHttp)" "$port"
        ;;
    ts-everything-http-2026)
        run_http "$name" 2026-07-28 "$(quote env "PORT=$port" "$NODE" --require "$LOOPBACK" "$EVERYTHING" streamableHttp)" "$port"
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
    example-https) run_https "$name" 2025-11-25 "$(quote "$EXAMPLE" --http "127.0.0.1:$port")" "$port" ;;
    example-https-2026)
        run_https "$name" 2026-07-28 "$(quote "$EXAMPLE" --http "127.0.0.1:$port" --stateless)" "$port"
        ;;
    ts-everything-https)
        run_https "$name" 2025-11-25 "$(quote env "PORT=$port" "$NODE" --require "$LOOPBACK" "$EVERYTHING" streamableHttp)" "$port"
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
