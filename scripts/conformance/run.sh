#!/usr/bin/env bash
# Runs the official MCP conformance suite against crates/mcpwire-server/examples/conformance.rs
# and prints a score table. Not part of CI: it installs npm packages into a cache dir outside
# the repository (MCPWIRE_CONFORMANCE_CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/mcpwire-conformance).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/conformance/suite.sh
. "$ROOT/scripts/conformance/suite.sh"
OUT=${MCPWIRE_CONFORMANCE_OUT:-$CACHE/results}
mkdir -p "$OUT"
install_suite
build_example mcpwire-server conformance
SERVER=$EXAMPLE_BIN

free_port() {
    "$NODE" -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

SERVER_PID=
stop_server() {
    if [ -n "$SERVER_PID" ]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=
    fi
}
trap stop_server EXIT

# start_server NAME SERVER_ARGS...: starts the server on a free port (PORT), logging to
# $OUT/NAME.server.log, and waits (5 s at most) until it accepts connections.
PORT=
start_server() {
    local name=$1
    shift
    PORT=$(free_port)
    "$SERVER" --http "127.0.0.1:$PORT" "$@" 2>"$OUT/$name.server.log" &
    SERVER_PID=$!
    for _ in $(seq 50); do
        (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
        sleep 0.1
    done
}

# run NAME SUITE_ARGS...: runs the suite against the server started below, keeps its output
# in $OUT/NAME.log and the counts in $OUT/NAME.score.
run() {
    local name=$1
    shift
    "$NODE" "$SUITE" server --url "http://127.0.0.1:$PORT/mcp" "$@" \
        -o "$OUT/$name" >"$OUT/$name.log" 2>&1 || true
    score "$OUT/$name.log" >"$OUT/$name.score"
}

# run_extensions: the suite's extension scenarios (Tasks, Skills) carry no spec version, so no
# --spec-version filter selects them; each runs alone with --scenario.
run_extensions() {
    local scenario
    : >"$OUT/extensions.log"
    for scenario in $("$NODE" "$SUITE" list --server | sed -n 's/^  - \(\S*\) \[extension\]$/\1/p'); do
        "$NODE" "$SUITE" server --url "http://127.0.0.1:$PORT/mcp" --scenario "$scenario" \
            -o "$OUT/extensions" >>"$OUT/extensions.log" 2>&1 || true
    done
    # This run's counts come from the checks.json files (one scenario per suite invocation).
    "$NODE" -e '
const fs = require("fs"), path = require("path");
let sp = 0, st = 0, cp = 0, ct = 0;
for (const d of fs.readdirSync(process.argv[1])) {
  const f = path.join(process.argv[1], d, "checks.json");
  if (!fs.existsSync(f)) continue;
  const checks = JSON.parse(fs.readFileSync(f, "utf8"));
  const ok = checks.filter(c => c.status === "SUCCESS").length;
  const bad = checks.filter(c => c.status === "FAILURE").length;
  st++; if (bad === 0 && ok > 0) sp++;
  cp += ok; ct += ok + bad;
}
console.log(sp, st, cp, ct);' "$OUT/extensions" >"$OUT/extensions.score"
}

# compare_baseline: every scenario of every run, read from its checks.json, against
# scripts/conformance/baseline.txt ("scenario  reason" lines). A failing scenario missing from
# the baseline is a new failure (exit status 1); a baseline entry that passed wherever it ran is
# stale.
compare_baseline() {
    "$NODE" -e '
const fs = require("fs"), path = require("path");
const [out, baselineFile] = process.argv.slice(1);
const baseline = new Map();
for (const l of fs.readFileSync(baselineFile, "utf8").split("\n")) {
  const t = l.trim();
  if (!t || t.startsWith("#")) continue;
  const m = t.match(/^(\S+)\s+(.+)$/);
  if (!m) { console.error(`baseline line without a reason: ${t}`); process.exit(2); }
  baseline.set(m[1], m[2]);
}
// scenario -> list of "run: passed/total" and whether it failed anywhere
const seen = new Map();
for (const run of fs.readdirSync(out)) {
  const dir = path.join(out, run);
  if (!fs.statSync(dir).isDirectory()) continue;
  for (const d of fs.readdirSync(dir)) {
    const m = d.match(/^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/);
    const f = path.join(dir, d, "checks.json");
    if (!m || !fs.existsSync(f)) continue;
    const checks = JSON.parse(fs.readFileSync(f, "utf8"));
    const ok = checks.filter(c => c.status === "SUCCESS").length;
    const bad = checks.filter(c => c.status === "FAILURE").length;
    const e = seen.get(m[1]) || { failed: false, runs: [] };
    e.failed ||= bad > 0 || ok === 0;
    e.runs.push(`${run} ${ok}/${ok + bad}`);
    seen.set(m[1], e);
  }
}
let newFailures = 0, expected = 0, passed = 0;
const lines = [];
for (const [name, e] of [...seen].sort()) {
  if (!e.failed) { passed++; if (baseline.has(name)) lines.push(`stale    ${name}: passes now (${e.runs.join(", ")}); remove it from the baseline`); continue; }
  if (baseline.has(name)) { expected++; lines.push(`expected ${name} (${e.runs.join(", ")}): ${baseline.get(name)}`); }
  else { newFailures++; lines.push(`NEW      ${name} (${e.runs.join(", ")}): fails and is not in the baseline`); }
}
for (const name of baseline.keys()) if (!seen.has(name)) lines.push(`unrun    ${name}: in the baseline but no run exercised it`);
console.log(`\nbaseline (${path.basename(baselineFile)}): ${seen.size} scenarios, ${passed} pass everywhere, ${expected} expected failures, ${newFailures} new failures`);
for (const l of lines) console.log(l);
process.exit(newFailures > 0 ? 1 : 0);' "$OUT" "$ROOT/scripts/conformance/baseline.txt"
}

rm -rf "${OUT:?}"/*
# Every run against ONE process, started once without --stateless: one endpoint serving
# `initialize` clients with sessions and 2026-07-28 clients statelessly.
start_server server
STARTED_PID=$SERVER_PID
run session-2025-11-25 --requirements 2025-11-25
run stateless-2026-07-28 --requirements 2026-07-28
# --suite all (pending and draft scenarios included), each revision at its own wire;
# MCPWIRE_CONFORMANCE_ALL=0 skips these runs.
if [ "${MCPWIRE_CONFORMANCE_ALL:-1}" = 1 ]; then
    run all-2025-11-25 --suite all --spec-version 2025-11-25
    run all-2026-07-28 --suite all --spec-version 2026-07-28
    run_extensions
fi
if ! kill -0 "$STARTED_PID" 2>/dev/null; then
    echo "the server (pid $STARTED_PID) did not live through the runs; see $OUT/server.server.log" >&2
    exit 1
fi
echo "every run above: one server process, pid $STARTED_PID, started once"
stop_server

printf '\n| run | scenarios passed | checks passed |\n|---|---|---|\n'
for f in "$OUT"/*.score; do
    read -r sp st cp ct <"$f"
    printf '| %s | %s/%s | %s/%s |\n' "$(basename "$f" .score)" "$sp" "$st" "$cp" "$ct"
done
echo "details: $OUT (suite output in *.log, checks in */checks.json)"
# The client scenarios (crates/mcpwire-client/examples/everything_client.rs);
# MCPWIRE_CONFORMANCE_CLIENT=0 skips them.
client_status=0
if [ "${MCPWIRE_CONFORMANCE_CLIENT:-1}" = 1 ]; then
    "$ROOT/scripts/conformance/client.sh" || client_status=$?
fi
compare_baseline && exit "$client_status"
