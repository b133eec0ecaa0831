#!/usr/bin/env bash
# The whole authorization story against a real authorization server (issues 49 and 50; not CI:
# it installs from npm):
#
#   1. npm's `oidc-provider` (the certified OpenID implementation), configured by
#      scripts/auth/provider.mjs, on 127.0.0.1: resource indicators (RFC 8707) on, JWT access
#      tokens whose `aud` is the resource, dynamic registration, PKCE required, its development
#      login and consent pages;
#   2. `mcpwire serve --http` protected by it: --auth-issuer (the provider),
#      --auth-audience (the endpoint's URL), --auth-scope mcp:tools; one server under
#      `--profile mcp-2025-11-25` (sessions, `initialize`), one under `mcp-2026-07-28`
#      (stateless, `server/discover`), each its own resource;
#   3. mcpwire-client's OAuth end to end: the walk example (`--oauth`, feature `oauth`) is
#      challenged, finds the metadata, registers dynamically, runs the authorization code flow
#      with PKCE (scripts/auth/browser.sh plays the user on the provider's pages with curl) and
#      calls the server's tool; against each server, under its version;
#   4. tokens from the provider's token endpoint for the checker: the right audience, a wrong
#      audience, an expired one (a client whose tokens live 1 s, used once the server's 30 s
#      leeway has passed) and one without the required scope. They come from the client
#      credentials grant: the provider supports it, a script has no user, and the grant's form
#      names the audience (`resource`) and the scope directly; the authorization code flow is
#      the client's, in step 3. Each token is first sent to the endpoint with curl and its
#      status checked (200, 401, 401, 403), on the 2025-11-25 server as every later step;
#   5. `mcpwire check --http URL --auth --bearer TOKEN --bearer-for expired=…
#      --bearer-for wrong-audience=… --bearer-for insufficient-scope=…`, then
#      `mcpwire check --http URL --all --bearer TOKEN`. These flags come with issue 49's
#      checker; a binary without them is said to lack them and the step is reported NOT RUN.
#
#   scripts/auth/run.sh
#
# Environment:
#   MCPWIRE_AUTH_DIR  installs, logs and reports (default /tmp/mcpwire-auth; never inside the
#                     repository)
#   SKIP_INSTALL=1    use what is installed there
#   SKIP_BUILD=1      use the binaries already built (MCPWIRE and WALK name others: the walk
#                     must be built with the feature `oauth`)
#   KEEP_RUNNING=1    leave the provider and the server running at the end (their URLs and
#                     pids are printed; stop them with `kill -- -PID`)
#
# Prints one line per step (PASS, FAIL or NOT RUN) and a table at the end, also written to
# $MCPWIRE_AUTH_DIR/reports/summary.md. Exit status: 0 when every step ran and passed, 1 when
# one failed, 3 when none failed but the checker steps could not run (a binary without the
# --auth flags).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DIR=$(realpath -m "${MCPWIRE_AUTH_DIR:-/tmp/mcpwire-auth}")
OUT="$DIR/reports"
# shellcheck source=scripts/real-servers/lib.sh
source "$ROOT/scripts/real-servers/lib.sh"

case "$DIR" in
"$ROOT" | "$ROOT"/*)
    echo "MCPWIRE_AUTH_DIR must be outside the repository ($ROOT)" >&2
    exit 2
    ;;
esac
mkdir -p "$DIR/logs" "$OUT"
rm -f "$OUT"/*
PIDS=()
cleanup() {
    local pid
    if [ -n "${KEEP_RUNNING:-}" ]; then
        echo "left running: ${PIDS[*]:-nothing} (stop with kill -- -PID)" >&2
        return
    fi
    for pid in "${PIDS[@]}"; do stop_server "$pid"; done
}
trap cleanup EXIT

RESULTS=()
failed=0
not_run=0
# result NAME STATUS DETAIL: notes a step's outcome (PASS, FAIL or NOT RUN).
result() {
    RESULTS+=("| $1 | $2 | $3 |")
    printf '    %s: %s (%s)\n' "$2" "$1" "$3" >&2
    case $2 in
    FAIL) failed=$((failed + 1)) ;;
    "NOT RUN") not_run=$((not_run + 1)) ;;
    esac
}

summary() {
    {
        printf '| step | result | detail |\n|---|---|---|\n'
        printf '%s\n' "${RESULTS[@]}"
    } | tee "$OUT/summary.md"
}

# --- install and build ------------------------------------------------------------------------
NPM="$DIR/npm"
NODE="$NPM/node_modules/.bin/node"
if [ -z "${SKIP_INSTALL:-}" ] || [ ! -x "$NODE" ]; then
    step "installing oidc-provider and node@22 (npm) into $NPM"
    mkdir -p "$NPM"
    if ! timed "$DIR/logs/install-npm.log" npm install --prefix "$NPM" --no-audit --no-fund \
        --loglevel=error oidc-provider@9 node@22; then
        echo "npm install failed: see $DIR/logs/install-npm.log" >&2
        exit 1
    fi
fi
# The provider's configuration beside its node_modules (ES modules resolve from the file).
cp "$ROOT/scripts/auth/provider.mjs" "$NPM/provider.mjs"

TARGET=$(cd "$ROOT" && cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
MCPWIRE=${MCPWIRE:-$TARGET/debug/mcpwire}
WALK=${WALK:-$TARGET/debug/examples/walk}
if [ -z "${SKIP_BUILD:-}" ]; then
    step "building mcpwire and the walk example (feature oauth)"
    if ! (cd "$ROOT" && timed "$DIR/logs/build.log" cargo build -p mcpwire-cli &&
        timed "$DIR/logs/build-walk.log" cargo build -p mcpwire-client --features oauth --example walk); then
        echo "the build failed: see $DIR/logs/build*.log" >&2
        exit 1
    fi
fi

# --- the authorization server and the protected server ----------------------------------------
AS_PORT=$(free_port)
MCP_PORT=$(free_port)
MCP_PORT_2026=$(free_port)
ISSUER="http://127.0.0.1:$AS_PORT"
RESOURCE="http://127.0.0.1:$MCP_PORT/mcp"
RESOURCE_2026="http://127.0.0.1:$MCP_PORT_2026/mcp"
WRONG_RESOURCE="http://127.0.0.1:$(free_port)/mcp"

step "oidc-provider at $ISSUER (resources $RESOURCE, $RESOURCE_2026 and $WRONG_RESOURCE)"
pid=$(start_server "$(quote "$NODE" "$NPM/provider.mjs" "$AS_PORT" "$RESOURCE" "$RESOURCE_2026" \
    "$WRONG_RESOURCE")" "$DIR/logs/provider.log")
PIDS+=("$pid")
if ! wait_for_port "$AS_PORT" "$pid" 30; then
    echo "oidc-provider did not start: see $DIR/logs/provider.log" >&2
    exit 1
fi

# token CLIENT RESOURCE SCOPE: an access token of the client credentials grant (empty on error;
# the answer is kept in the logs).
token() {
    curl -sS --max-time 10 -u "$1:script-secret" -d grant_type=client_credentials \
        --data-urlencode "resource=$2" --data-urlencode "scope=$3" "$ISSUER/token" |
        tee -a "$DIR/logs/tokens.log" |
        python3 -c 'import json, sys; print(json.load(sys.stdin).get("access_token", ""))' 2>/dev/null
    echo >>"$DIR/logs/tokens.log"
}

# claim TOKEN NAME: a claim of a JWT's payload.
claim() {
    python3 - "$1" "$2" <<'PY'
import base64, json, sys
payload = sys.argv[1].split(".")[1]
print(json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))).get(sys.argv[2], ""))
PY
}

# The expired token first: it must be older than the server's 30 s leeway when it is used.
EXPIRED=$(token script-expired "$RESOURCE" mcp:tools)

for served in "2025-11-25 $MCP_PORT $RESOURCE" "2026-07-28 $MCP_PORT_2026 $RESOURCE_2026"; do
    read -r version port resource <<<"$served"
    step "mcpwire serve --profile mcp-$version --http 127.0.0.1:$port, protected (audience $resource, scope mcp:tools)"
    pid=$(start_server "$(quote "$MCPWIRE" serve --profile "mcp-$version" --http "127.0.0.1:$port" \
        --auth-issuer "$ISSUER" --auth-audience "$resource" --auth-scope mcp:tools \
        --auth-allow-loopback-http)" "$DIR/logs/server-$version.log")
    PIDS+=("$pid")
    if ! wait_for_port "$port" "$pid" 30; then
        echo "the server did not start: see $DIR/logs/server-$version.log" >&2
        exit 1
    fi
done

# --- the client's OAuth, end to end -------------------------------------------------------------
for served in "2025-11-25 $RESOURCE" "2026-07-28 $RESOURCE_2026"; do
    read -r version resource <<<"$served"
    name="client-oauth-$version"
    step "$name: walk --oauth --browser scripts/auth/browser.sh --protocol $version $resource"
    timeout -k 5 120 "$WALK" --protocol "$version" --timeout 30 --oauth \
        --browser "$ROOT/scripts/auth/browser.sh" "$resource" \
        >"$OUT/$name.txt" 2>"$OUT/$name.log" </dev/null
    rc=$?
    line=$(grep '^walk:' "$OUT/$name.txt" || echo "no summary (exit $rc)")
    tool_ok=$(grep -cE '^ok +tool +echo' "$OUT/$name.txt")
    if [ "$rc" = 0 ] && [ "$tool_ok" -ge 1 ]; then
        result "$name" PASS "${line#walk: }"
    else
        result "$name" FAIL "exit $rc; ${line#walk: }; see $OUT/$name.{txt,log}"
    fi
done
registered=$(grep -c '^registered client' "$DIR/logs/provider.log" || true)

# --- tokens, and what the endpoint answers each -------------------------------------------------
GOOD=$(token script "$RESOURCE" mcp:tools)
WRONG=$(token script "$WRONG_RESOURCE" mcp:tools)
NARROW=$(token script "$RESOURCE" mcp:other)
for pair in "right audience:$GOOD" "wrong audience:$WRONG" "without mcp:tools:$NARROW" "expired:$EXPIRED"; do
    if [ -z "${pair#*:}" ]; then
        result "token: ${pair%%:*}" FAIL "the provider issued none; see $DIR/logs/tokens.log"
    fi
done
if [ -n "$EXPIRED" ]; then
    # Past its exp by more than the server's leeway (30 s).
    wait_until=$(($(claim "$EXPIRED" exp) + 32))
    while [ "$(date +%s)" -lt "$wait_until" ]; do sleep 1; done
fi

# answer TOKEN: "STATUS CHALLENGE" of an initialize POSTed with TOKEN (none when empty).
answer() {
    local auth=()
    [ -n "$1" ] && auth=(-H "Authorization: Bearer $1")
    curl -sS --max-time 10 -o /dev/null -D - -X POST "$RESOURCE" "${auth[@]}" \
        -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
        -H 'MCP-Protocol-Version: 2025-11-25' \
        --data '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}' |
        tr -d '\r' | awk 'NR == 1 { status = $2 } tolower($1) == "www-authenticate:" { $1 = ""; challenge = $0 }
            END { print status challenge }'
}
# expect NAME TOKEN STATUS [NEEDLE]: the endpoint answers TOKEN with STATUS (and NEEDLE in the
# challenge).
expect() {
    local got
    got=$(answer "$2")
    if [ "${got%% *}" = "$3" ] && [[ "$got" == *"${4:-}"* ]]; then
        result "endpoint: $1" PASS "$got"
    else
        result "endpoint: $1" FAIL "expected $3${4:+ with $4}, got: $got"
    fi
}
step "what the endpoint answers each token"
expect "no token" "" 401 'resource_metadata="'
expect "right audience" "$GOOD" 200
expect "wrong audience (aud $(claim "$WRONG" aud))" "$WRONG" 401 'error="invalid_token"'
expect "expired (exp $(claim "$EXPIRED" exp))" "$EXPIRED" 401 'error="invalid_token"'
expect "without mcp:tools (scope $(claim "$NARROW" scope))" "$NARROW" 403 'error="insufficient_scope"'

# --- the checker ---------------------------------------------------------------------------------
HELP=$("$MCPWIRE" check --help 2>&1)
missing=()
for flag in --auth --bearer --bearer-for; do
    grep -qE -- "(^|[ ,])$flag([ =<]|$)" <<<"$HELP" || missing+=("$flag")
done
if [ ${#missing[@]} -gt 0 ]; then
    why="$MCPWIRE has no ${missing[*]} (mcpwire check's authorization probes, issue 49)"
    echo "    $why" >&2
    result "check --auth" "NOT RUN" "$why"
    result "check --all with the token" "NOT RUN" "$why"
else
    step "mcpwire check --http $RESOURCE --auth --bearer … --bearer-for expired=… wrong-audience=… insufficient-scope=…"
    "$MCPWIRE" check --http "$RESOURCE" --auth --bearer "$GOOD" \
        --bearer-for "expired=$EXPIRED" --bearer-for "wrong-audience=$WRONG" \
        --bearer-for "insufficient-scope=$NARROW" >"$OUT/check-auth.txt" 2>&1
    rc=$?
    if [ "$rc" = 0 ]; then
        result "check --auth" PASS "exit 0; report $OUT/check-auth.txt"
    else
        result "check --auth" FAIL "exit $rc; report $OUT/check-auth.txt"
    fi
    step "mcpwire check --http $RESOURCE --all --bearer …"
    "$MCPWIRE" check --http "$RESOURCE" --all --bearer "$GOOD" >"$OUT/check-all.txt" 2>&1
    rc=$?
    if [ "$rc" = 0 ]; then
        result "check --all with the token" PASS "exit 0; report $OUT/check-all.txt"
    else
        result "check --all with the token" FAIL "exit $rc; report $OUT/check-all.txt"
    fi
fi

echo >&2
echo "oidc-provider $(npm_version "$NPM" oidc-provider), node $("$NODE" --version); dynamic registrations seen: $registered" >&2
summary
if [ "$failed" -gt 0 ]; then
    exit 1
elif [ "$not_run" -gt 0 ]; then
    exit 3
fi
exit 0
