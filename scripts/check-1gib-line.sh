#!/usr/bin/env bash
# Issue 47 item 4: `mcpwire check` against a stdio server whose reply line is 1 GiB
# (tests/fixtures/servers/hostile_server.py huge-line 1024). The checker skips the line as it
# reads it, reports `reply-too-long` and keeps its memory bounded; this prints the peak RSS.
# Too slow for CI on two shared cores (tests/check_hostile.rs runs the same at 256 MiB).
#
#   scripts/check-1gib-line.sh [MIB]      (default 1024; needs a built `mcpwire` on PATH or
#                                          MCPWIRE=path/to/mcpwire)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
mib="${1:-1024}"
bin="${MCPWIRE:-mcpwire}"
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
status=0
/usr/bin/time -v "$bin" check --stdio --format json --no-shrink --no-fixed --cases 1 \
    --timeout 120 -- python3 "$here/tests/fixtures/servers/hostile_server.py" huge-line "$mib" \
    >"$report" 2>"$report.time" || status=$?
peak="$(grep 'Maximum resident set size' "$report.time" | awk '{print $NF}')"
rm -f "$report.time"
echo "exit $status, peak RSS ${peak} KiB"
grep -q '"reply-too-long"' "$report" && echo "reported: reply-too-long"
