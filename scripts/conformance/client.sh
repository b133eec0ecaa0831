#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against
# crates/mcpwire-client/examples/everything_client.rs (built with the feature `oauth`) and
# prints a table: every scenario of each requirement set (2025-11-25, 2026-07-28), authorization
# (auth/*) included, the ones the set lists as added after its release included, the extension
# scenarios the client implements (client credentials, basic and JWT), and the two authorization back-compatibility scenarios of 2025-03-26. Not part of
# CI (it installs npm packages; see suite.sh). Exit status 1 when a scenario fails.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/conformance/suite.sh
. "$ROOT/scripts/conformance/suite.sh"
install_suite
OUT=${MCPWIRE_CONFORMANCE_CLIENT_OUT:-$CACHE/client-results}
REVISIONS=(2025-03-26 2025-11-25 2026-07-28 extension)
rm -rf "${OUT:?}"
mkdir -p "$OUT"
echo "building everything_client of mcpwire-client (feature oauth)" >&2
(cd "$ROOT" && cargo build --quiet -p mcpwire-client --features oauth --example everything_client)
CLIENT=${CARGO_TARGET_DIR:-$ROOT/target}/debug/examples/everything_client

# scenarios REVISION: the client scenarios the requirement set lists (scored, or not scored
# because they were added after the release); for 2025-03-26, which has no requirement set,
# the suite's two scenarios of that revision's authorization (no resource metadata); for
# "extension", the extension scenarios the client implements (run without a spec version:
# they are not on the spec's timeline).
scenarios() {
    if [ "$1" = 2025-03-26 ]; then
        printf '%s\n' auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback
        return
    fi
    if [ "$1" = extension ]; then
        printf '%s\n' auth/client-credentials-basic auth/client-credentials-jwt
        return
    fi
    "$NODE" -e '
const YAML = require(process.argv[1]);
const fs = require("fs");
const set = YAML.parse(fs.readFileSync(process.argv[2], "utf8"));
const names = [...(set.client || [])];
for (const e of set.not_scored || [])
  if (e.leg === "client" && e.reason === "added-after-release") names.push(e.scenario);
for (const n of names) console.log(n);' \
        "$CACHE/node_modules/yaml" \
        "$CACHE/node_modules/@modelcontextprotocol/conformance/requirements/$1.yaml"
}

# Each scenario at the revision's version, its output kept in $OUT/REVISION/SCENARIO.log and
# "passed total ok" (ok: the suite's overall verdict) in $OUT/REVISION/SCENARIO.score.
for revision in "${REVISIONS[@]}"; do
    mkdir -p "$OUT/$revision"
    for scenario in $(scenarios "$revision"); do
        file=$OUT/$revision/${scenario//\//_}
        version=(--spec-version "$revision")
        [ "$revision" = extension ] && version=()
        "$NODE" "$SUITE" client --command "$CLIENT" --scenario "$scenario" \
            "${version[@]}" -o "$OUT/$revision" >"$file.log" 2>&1 || true
        ok=0
        grep -q 'OVERALL: PASSED' "$file.log" && ok=1
        counts=$(sed -n 's/^Passed: \([0-9]*\)\/\([0-9]*\),.*/\1 \2/p' "$file.log" | tail -1)
        echo "${counts:-0 0} $ok" >"$file.score"
    done
done

# The table: one row per scenario, one column per revision ("—": not in that set).
printf '\n| client scenario |'
for revision in "${REVISIONS[@]}"; do printf ' %s |' "$revision"; done
printf '\n|---|'
for _ in "${REVISIONS[@]}"; do printf -- '---|'; done
printf '\n'
failed=0
for name in $(for r in "${REVISIONS[@]}"; do scenarios "$r"; done | awk '!seen[$0]++'); do
    printf '| %s |' "$name"
    for revision in "${REVISIONS[@]}"; do
        score=$OUT/$revision/${name//\//_}.score
        if [ ! -f "$score" ]; then
            printf ' — |'
            continue
        fi
        read -r passed total ok <"$score"
        if [ "$ok" = 1 ]; then
            printf ' pass (%s/%s checks) |' "$passed" "$total"
        else
            printf ' **FAIL** (%s/%s checks) |' "$passed" "$total"
            failed=$((failed + 1))
        fi
    done
    printf '\n'
done
echo "details: $OUT (suite output in */*.log, checks in */*/checks.json)"
[ "$failed" = 0 ]
