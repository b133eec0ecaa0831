# shellcheck shell=bash
# Helpers of scripts/check-real-servers.sh and scripts/sdk-clients/run.sh (sourced; not run on its
# own).

# now: seconds since the epoch, with fractions.
now() { date +%s.%N; }

# diff_seconds FROM TO: TO - FROM, one decimal.
diff_seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# elapsed FROM: seconds since FROM, one decimal.
elapsed() { diff_seconds "$1" "$(now)"; }

# step TEXT: a progress line on stderr.
step() { printf '==> %s\n' "$*" >&2; }

# quote WORD...: the words as one shell-quoted line.
quote() {
    local out
    out=$(printf '%q ' "$@")
    printf '%s' "${out% }"
}

# timed LOG COMMAND...: runs COMMAND with its output in LOG; says how long it took.
timed() {
    local log=$1 started rc
    shift
    started=$(now)
    "$@" >"$log" 2>&1 </dev/null
    rc=$?
    printf '    %ss (exit %s; log %s)\n' "$(elapsed "$started")" "$rc" "$log" >&2
    return $rc
}

# npm_version PREFIX PACKAGE: the version npm installed under PREFIX (empty when absent).
npm_version() {
    python3 - "$1/node_modules/$2/package.json" <<'PY' 2>/dev/null
import json, sys
print(json.load(open(sys.argv[1]))["version"])
PY
}

# pip_version VENV DIST: the version of DIST in VENV (empty when absent).
pip_version() {
    "$1/bin/python" -c 'import importlib.metadata as m, sys; print(m.version(sys.argv[1]))' "$2" \
        2>/dev/null
}

# lock_version CARGO_LOCK CRATE: the version of CRATE the lock file pins (empty when absent).
lock_version() {
    python3 - "$1" "$2" <<'PY' 2>/dev/null
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    lock = tomllib.load(f)
print(next(p["version"] for p in lock["package"] if p["name"] == sys.argv[2]))
PY
}

# record SERVER VERSION TRANSPORT EXIT SECONDS REPORT LOG COMMAND NOTE: one line of
# $OUT/manifest.jsonl (EXIT "-" when the checker did not run; LOG is the checker's stderr).
record() {
    python3 - "$OUT/manifest.jsonl" "$@" <<'PY'
import json, sys
keys = ["server", "version", "transport", "exit", "seconds", "report", "log", "command", "note"]
row = dict(zip(keys, sys.argv[2:]))
row["exit"] = None if row["exit"] in ("-", "") else int(row["exit"])
row["seconds"] = float(row["seconds"]) if row["seconds"] else None
with open(sys.argv[1], "a") as f:
    f.write(json.dumps(row) + "\n")
PY
}

# note_exit STATUS: says what a checker exit status means; fails when the server was not checked.
note_exit() {
    case $1 in
    0) printf '    no unexpected violation\n' >&2 ;;
    1) printf '    violations found (exit 1)\n' >&2 ;;
    124 | 137) printf '    TIMEOUT after %ss\n' "$RUN_TIMEOUT" >&2 && return 1 ;;
    *) printf '    server not checked (exit %s)\n' "$1" >&2 && return 1 ;;
    esac
}

# free_port: a TCP port on 127.0.0.1 that nothing listens on right now.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_server COMMAND LOG: starts the (quoted) COMMAND in a session of its own, output in LOG;
# prints its pid, which is also its process group.
start_server() {
    setsid bash -c "exec $1" >"$2" 2>&1 </dev/null &
    echo $!
}

# wait_for_port PORT PID SECONDS: waits until 127.0.0.1:PORT accepts connections; fails when the
# process PID exits first or SECONDS pass.
wait_for_port() {
    local deadline
    deadline=$(awk -v t="$(now)" -v s="$3" 'BEGIN { printf "%.0f", t + s }')
    while [ "$(date +%s)" -lt "$deadline" ]; do
        kill -0 "$2" 2>/dev/null || return 1
        if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then
            return 0
        fi
        sleep 0.2
    done
    return 1
}

# stop_server PID: stops the process group PID (TERM, then KILL after 5 s).
stop_server() {
    local _
    kill -TERM -- "-$1" 2>/dev/null || kill -TERM "$1" 2>/dev/null
    for _ in $(seq 50); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL -- "-$1" 2>/dev/null
    wait "$1" 2>/dev/null
    return 0
}
