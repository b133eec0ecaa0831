#!/usr/bin/env bash
# Several MCP server processes behind nginx, sharing one Redis: proves what issue 32 asks.
# Not part of CI. Installs Debian's redis-server and nginx when missing (apt-get), the official
# conformance suite into the cache of scripts/conformance (see suite.sh), builds the
# conformance example with --features redis, and starts everything on free loopback ports
# with its own config and data under a temporary directory; everything is stopped at the end.
#
#   0. a process given --redis without a shared requestState secret refuses to start;
#   1. the suite's 2026-07-28 requirement set through nginx round-robin over three stateless
#      processes: 100%;
#   2. a listener on process A gets notifications/tools/list_changed within 1 s of
#      test_trigger_tool_change on process B;
#  2b. a task created at A (slow_compute, 1 s) is read at B, working then completed; a second
#      one cancelled at B is cancelled at B at once and at A;
#   3. Redis restarted while clients call: every call answered, no process exits, the bus is
#      up again and events flow within seconds;
#  3b. Redis frozen (kill -STOP: connections open, nothing answered) while clients call: every
#      process notices on its subscription (the PING it sends goes unanswered), every call is
#      answered, and after kill -CONT the bus is up again and events flow within seconds;
#   4. the suite's 2025-11-25 requirement set through nginx routing by Mcp-Session-Id over
#      three session-mode processes (each tags the ids it mints; nginx maps the tag to the
#      process, see nginx.conf.template): 100%;
#   5. a stream's process killed (-9) mid-stream: the client resumes through nginx with
#      Last-Event-ID at another process and gets every event it missed, exactly once; the dead
#      session's next request is 404 and a new initialize works;
#   6. one client's initialize flood through nginx (from another of this machine's
#      addresses) leaves a loopback client's session served, and ends the flood's own oldest
#      session; the same flood against processes that do not trust nginx ends the other
#      client's session (issue 48: trusted proxies).
#
# (The issue's numbering: its items 1, 2, 4, 5 and 3 are steps 1 to 5 here.)
# Exit status 0 when every step holds. MCPWIRE_CLUSTER_TIMEOUT bounds the whole run (seconds,
# default 900).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/scripts/cluster
CACHE=${MCPWIRE_CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpwire-conformance}
mkdir -p "$CACHE"
CLIENT=$HERE/cluster_client.py

# The whole run is bounded: past the limit the script stops itself (and the trap cleans up).
LIMIT=${MCPWIRE_CLUSTER_TIMEOUT:-900}
# (Its output goes nowhere, so that no leftover holds the caller's pipe open.)
(
    trap 'kill "$nap" 2>/dev/null; exit 0' TERM
    sleep "$LIMIT" &
    nap=$!
    wait "$nap"
    kill -TERM $$
) >/dev/null 2>&1 &
WATCHDOG=$!

if ! command -v redis-server >/dev/null || ! command -v nginx >/dev/null; then
    echo "installing redis-server and nginx (apt-get)" >&2
    apt-get install -y redis-server nginx >&2 || {
        apt-get update >&2 && apt-get install -y redis-server nginx >&2
    }
fi

. "$ROOT/scripts/conformance/suite.sh"
install_suite

echo "building the conformance server with --features redis" >&2
(cd "$ROOT" && cargo build --quiet -p mcpwire-server --features redis --example conformance)
SERVER=${CARGO_TARGET_DIR:-$ROOT/target}/debug/examples/conformance

DIR=$(mktemp -d /tmp/mcpwire-cluster.XXXXXX)
chmod 755 "$DIR"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    kill "$WATCHDOG" 2>/dev/null || true
    if [ "${MCPWIRE_CLUSTER_KEEP:-0}" = 1 ]; then
        echo "cluster: logs kept in $DIR" >&2
    else
        rm -rf "$DIR"
    fi
}
trap cleanup EXIT
trap 'echo "cluster: stopped (time limit of ${LIMIT} s, or interrupted)" >&2; exit 143' TERM INT

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_port PORT: until something accepts connections on PORT (10 s at most).
wait_port() {
    local _
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "cluster: nothing listens on port $1" >&2
    return 1
}

FAILED=()
# verdict STEP STATUS: records a step's outcome.
verdict() {
    if [ "$2" = 0 ]; then
        echo "step $1: PASS"
    else
        echo "step $1: FAIL"
        FAILED+=("$1")
    fi
}

REDIS_PORT=$(free_port)
mkdir -p "$DIR/redis"
start_redis() {
    redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$DIR/redis" --save "" \
        --appendonly no --protected-mode yes --logfile "$DIR/redis.log" &
    REDIS_PID=$!
    PIDS+=("$REDIS_PID")
    wait_port "$REDIS_PORT"
}
start_redis
REDIS_URL=redis://127.0.0.1:$REDIS_PORT/
echo "redis-server $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/') on 127.0.0.1:$REDIS_PORT"

# The requestState secret every process shares (a file readable by this user only).
SECRET=$DIR/state-secret
(umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$SECRET")

# start_process NAME PORT ARGS...: one conformance server process joined to the cluster,
# trusting nginx (on loopback) to name each request's client in X-Forwarded-For, so that the
# per-client limits count the clients behind nginx, not nginx (TRUST=() for step 6's
# control, which trusts nobody).
declare -A PID_OF
TRUST=(--trusted-proxy 127.0.0.1)
start_process() {
    local name=$1 port=$2
    shift 2
    "$SERVER" --http "127.0.0.1:$port" --redis "$REDIS_URL" --state-secret-file "$SECRET" \
        ${TRUST[@]+"${TRUST[@]}"} "$@" \
        2>>"$DIR/$name.log" &
    PID_OF[$port]=$!
    PIDS+=("$!")
    wait_port "$port"
}

# stop_processes PORT...: ends those processes (and waits for them).
stop_processes() {
    local port
    for port in "$@"; do
        kill "${PID_OF[$port]}" 2>/dev/null || true
        wait "${PID_OF[$port]}" 2>/dev/null || true
    done
}

# suite NAME URL REQUIREMENTS: runs the official suite's requirement set against URL; prints
# the counts; status 0 only at 100%.
suite() {
    local name=$1 url=$2 requirements=$3
    timeout 300 "$NODE" "$SUITE" server --url "$url" --requirements "$requirements" \
        -o "$DIR/$name" >"$DIR/$name.log" 2>&1 || true
    read -r sp st cp ct < <(score "$DIR/$name.log")
    echo "  $requirements requirement set through nginx: scenarios $sp/$st, checks $cp/$ct"
    if [ "$st" -eq 0 ] || [ "$sp" != "$st" ] || [ "$cp" != "$ct" ]; then
        grep -E '^✗' "$DIR/$name.log" | head -20 | sed 's/^/    /'
        return 1
    fi
}

echo
echo "step 0: --redis without a shared requestState secret"
status=0
out=$(env -u MCPWIRE_STATE_SECRET timeout 10 "$SERVER" --http "127.0.0.1:$(free_port)" \
    --stateless --redis "$REDIS_URL" 2>&1) || status=$?
echo "  exit status $status: $out"
if [ "$status" = 2 ] && [[ $out == *request_state_secret* ]]; then verdict 0 0; else verdict 0 1; fi

PORT_A=$(free_port) PORT_B=$(free_port) PORT_C=$(free_port)
start_process A "$PORT_A" --stateless
start_process B "$PORT_B" --stateless
start_process C "$PORT_C" --stateless
echo "stateless processes A :$PORT_A, B :$PORT_B, C :$PORT_C"

PORT_D=$(free_port) PORT_E=$(free_port) PORT_F=$(free_port)
RR_PORT=$(free_port) STICKY_PORT=$(free_port)
USER_LINE=
[ "$(id -u)" = 0 ] && USER_LINE="user root root;"
sed -e "s|@DIR@|$DIR|g" -e "s|@USER@|$USER_LINE|" -e "s|@RR_PORT@|$RR_PORT|" \
    -e "s|@STICKY_PORT@|$STICKY_PORT|" -e "s|@PORT_A@|$PORT_A|" -e "s|@PORT_B@|$PORT_B|" \
    -e "s|@PORT_C@|$PORT_C|" -e "s|@PORT_D@|$PORT_D|" -e "s|@PORT_E@|$PORT_E|" \
    -e "s|@PORT_F@|$PORT_F|" "$HERE/nginx.conf.template" >"$DIR/nginx.conf"
cp "$HERE/proxy.conf" "$DIR/proxy.conf"
nginx -p "$DIR" -e "$DIR/nginx-error.log" -c "$DIR/nginx.conf" &
PIDS+=("$!")
wait_port "$RR_PORT"
echo "nginx $(nginx -v 2>&1 | sed 's|.*/||'): round-robin :$RR_PORT, by session :$STICKY_PORT"
python3 "$CLIENT" health "http://127.0.0.1:$PORT_A" "http://127.0.0.1:$PORT_B" \
    "http://127.0.0.1:$PORT_C" | sed 's/^/  GET \/healthz of A B C: /'

echo
echo "step 1: the official suite, 2026-07-28, nginx round-robin over A, B, C"
status=0
suite stateless-2026-07-28 "http://127.0.0.1:$RR_PORT/mcp" 2026-07-28 || status=$?
echo "  requests per process: $(awk '{print $1}' "$DIR/nginx-access.log" | sort | uniq -c \
    | awk '{printf "%s %s  ", $2, $1}')"
verdict 1 $status

echo
echo "step 2: a listener on A, test_trigger_tool_change on B"
status=0
python3 "$CLIENT" listen-trigger "http://127.0.0.1:$PORT_A/mcp" "http://127.0.0.1:$PORT_B/mcp" 5 \
    | sed 's/^/  /' || status=1
verdict 2 $status

echo
echo "step 2b: a task created at A is read and cancelled at B (tasks in Redis)"
status=0
python3 "$CLIENT" task-across "http://127.0.0.1:$PORT_A/mcp" "http://127.0.0.1:$PORT_B/mcp" \
    | sed 's/^/  /' || status=1
verdict 2b $status

# calls_for SECONDS FILE: tools/call through nginx every 50 ms for SECONDS, in the background
# (its pid in LOAD); FILE gets "answered failed".
calls_for() {
    (
        ok=0 bad=0
        end=$((SECONDS + $1))
        while [ $SECONDS -lt $end ]; do
            if python3 "$CLIENT" call "http://127.0.0.1:$RR_PORT/mcp" >/dev/null; then
                ok=$((ok + 1))
            else
                bad=$((bad + 1))
            fi
            sleep 0.05
        done
        echo "$ok $bad" >"$2"
    ) &
    LOAD=$!
}

# seconds_until COMMAND...: how many seconds until COMMAND succeeds (10 s at most; empty: never).
seconds_until() {
    local start=$SECONDS _
    for _ in $(seq 100); do
        if "$@" >/dev/null; then
            echo $((SECONDS - start))
            return
        fi
        sleep 0.1
    done
}

echo
echo "step 3: Redis restarted while clients call through nginx"
status=0
calls_for 6 "$DIR/calls-during-restart"
sleep 1
redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
wait "$REDIS_PID" 2>/dev/null || true
sleep 0.5
echo "  redis stopped; /healthz of A B C: $(python3 "$CLIENT" health "http://127.0.0.1:$PORT_A" \
    "http://127.0.0.1:$PORT_B" "http://127.0.0.1:$PORT_C" || true)"
sleep 1.5
start_redis
back=$(seconds_until python3 "$CLIENT" health "http://127.0.0.1:$PORT_A" \
    "http://127.0.0.1:$PORT_B" "http://127.0.0.1:$PORT_C")
wait "$LOAD" || true
read -r ok bad <"$DIR/calls-during-restart"
echo "  redis started again; every process's bus up again within ${back:-never} s"
echo "  tools/call through nginx during the restart: $ok answered, $bad failed"
alive=0
for port in "$PORT_A" "$PORT_B" "$PORT_C"; do
    kill -0 "${PID_OF[$port]}" 2>/dev/null && alive=$((alive + 1))
done
echo "  processes alive: $alive of 3"
echo "  outage lines logged by A: $(grep -c 'mcpwire_server::redis::bus_health' "$DIR/A.log") ($(grep 'mcpwire_server::redis::bus_health' "$DIR/A.log" | sed 's/.*bus_health: //' | cut -c1-60 | tr '\n' '|'))"
flow=0
python3 "$CLIENT" listen-trigger "http://127.0.0.1:$PORT_A/mcp" "http://127.0.0.1:$PORT_B/mcp" 3 \
    | sed 's/^/  /' || flow=1
if [ -z "$back" ] || [ "$bad" != 0 ] || [ "$alive" != 3 ] || [ "$flow" != 0 ]; then
    status=1
fi
verdict 3 $status

echo
echo "step 3b: Redis frozen (kill -STOP) while clients call through nginx, then thawed"
status=0
# Every process's subscription down: what only a PING on it notices (the connection stays open).
all_pubsub_down() {
    [ "$(python3 "$CLIENT" pubsub "http://127.0.0.1:$PORT_A" "http://127.0.0.1:$PORT_B" \
        "http://127.0.0.1:$PORT_C")" = "down down down" ]
}
logged_before=$(grep -c 'mcpwire_server::redis::bus_health' "$DIR/A.log" || true)
calls_for 6 "$DIR/calls-during-freeze"
kill -STOP "$REDIS_PID"
noticed=$(seconds_until all_pubsub_down)
sleep 2
kill -CONT "$REDIS_PID"
back=$(seconds_until python3 "$CLIENT" health "http://127.0.0.1:$PORT_A" \
    "http://127.0.0.1:$PORT_B" "http://127.0.0.1:$PORT_C")
wait "$LOAD" || true
read -r ok bad <"$DIR/calls-during-freeze"
echo "  every process's subscription reported down within ${noticed:-never} s of the freeze"
echo "  thawed; every process's bus up again within ${back:-never} s"
echo "  tools/call through nginx during the freeze: $ok answered, $bad failed"
logged=$(($(grep -c 'mcpwire_server::redis::bus_health' "$DIR/A.log" || true) - logged_before))
echo "  outage lines logged by A: $logged ($(grep 'mcpwire_server::redis::bus_health' "$DIR/A.log" | tail -n "$logged" \
    | sed 's/.*bus_health: //' | cut -c1-60 | tr '\n' '|'))"
flow=0
python3 "$CLIENT" listen-trigger "http://127.0.0.1:$PORT_A/mcp" "http://127.0.0.1:$PORT_B/mcp" 3 \
    | sed 's/^/  /' || flow=1
if [ -z "$noticed" ] || [ -z "$back" ] || [ "$bad" != 0 ] || [ "$logged" != 2 ] \
    || [ "$flow" != 0 ]; then
    status=1
fi
verdict 3b $status

# start_sessions: the session-mode processes D, E and F, with TRUST as it stands.
start_sessions() {
    start_process D "$PORT_D" --session-tag 0d && start_process E "$PORT_E" --session-tag 0e \
        && start_process F "$PORT_F" --session-tag 0f
}

stop_processes "$PORT_A" "$PORT_B" "$PORT_C"
start_sessions
echo
echo "session-mode processes D :$PORT_D, E :$PORT_E, F :$PORT_F"

echo
echo "step 4: the official suite, 2025-11-25, nginx routing by Mcp-Session-Id over D, E, F"
status=0
suite session-2025-11-25 "http://127.0.0.1:$STICKY_PORT/mcp" 2025-11-25 || status=$?
verdict 4 $status

echo
echo "step 5: kill -9 mid-stream, resume with Last-Event-ID through nginx"
status=0
python3 "$CLIENT" resume "http://127.0.0.1:$STICKY_PORT/mcp" \
    "$PORT_D=${PID_OF[$PORT_D]},$PORT_E=${PID_OF[$PORT_E]},$PORT_F=${PID_OF[$PORT_F]}" \
    | sed 's/^/  /' || status=1
verdict 5 $status

# restart_sessions: D, E and F started again, empty, with TRUST as it stands; then nginx
# reloaded, so that its new worker neither reuses a connection to the processes stopped nor
# keeps a process off its upstream (max_fails=1: step 5's kill, or a stale connection, takes
# a process off for 5 s, and its session's requests then go to the backup, which answers 404).
restart_sessions() {
    stop_processes "$PORT_D" "$PORT_E" "$PORT_F"
    start_sessions || return 1
    local master old _
    master=$(cat "$DIR/nginx.pid") || return 1
    old=$(pgrep -P "$master" || true)
    nginx -p "$DIR" -e "$DIR/nginx-error.log" -c "$DIR/nginx.conf" -s reload || return 1
    # Until the old worker has gone and a new one serves (5 s at most).
    for _ in $(seq 50); do
        if ! kill -0 $old 2>/dev/null && [ -n "$(pgrep -P "$master" || true)" ]; then
            return 0
        fi
        sleep 0.1
    done
    echo "  nginx: the worker before the reload (pid $old) still runs after 5 s" >&2
    return 1
}

echo
echo "step 6: one client's initialize flood through nginx, beside another client's session"
status=0
# The servers count every loopback address as one client (the machine itself): the attacker
# needs another of this machine's addresses. Nothing listens there; the attacker's
# connections to nginx on 127.0.0.1 only come from it.
ATTACKER=$({ hostname -I 2>/dev/null || ip -4 -o addr show scope global 2>/dev/null \
    | awk '{ sub(/\/.*/, "", $4); print $4 }'; } | tr ' ' '\n' | grep -E '^[0-9.]+$' \
    | grep -v '^127\.' | head -n 1 || true)
# More initializes than three processes' shares (64 sessions per client at each).
FLOOD=240
if [ -z "$ATTACKER" ]; then
    echo "  found no IPv4 address of this machine but loopback: two clients cannot be told apart"
    status=1
elif ! restart_sessions; then
    echo "  D, E, F could not be restarted behind a reloaded nginx"
    status=1
else
    echo "  D, E, F trusting nginx (--trusted-proxy 127.0.0.1):"
    python3 "$CLIENT" flood "http://127.0.0.1:$STICKY_PORT/mcp" "$ATTACKER" "$FLOOD" \
        | sed 's/^/    /' || status=1
    # The control: the same flood against processes that trust nobody, where every request
    # through nginx is nginx's own: the flood must end the victim's session, or this step
    # proves nothing.
    TRUST=()
    if restart_sessions; then
        echo "  the control, D, E, F trusting nobody:"
        control=$(python3 "$CLIENT" flood "http://127.0.0.1:$STICKY_PORT/mcp" "$ATTACKER" \
            "$FLOOD" || true)
        sed 's/^/    /' <<<"$control"
        [[ $control == *"victim: ended (HTTP 404)"* ]] || status=1
        [[ $control != *FAIL* ]] || status=1
    else
        echo "  D, E, F could not be restarted behind a reloaded nginx for the control"
        status=1
    fi
    TRUST=(--trusted-proxy 127.0.0.1)
fi
verdict 6 $status

echo
if [ ${#FAILED[@]} -eq 0 ]; then
    echo "cluster: every step passed"
else
    echo "cluster: failed steps: ${FAILED[*]} (MCPWIRE_CLUSTER_KEEP=1 keeps the logs)"
    exit 1
fi
