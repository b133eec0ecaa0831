#!/usr/bin/env bash
# Counts the hand-written version arms of mcpwire-model's conversions (issue 52).
#
# An arm is a line of crates/mcpwire-model/src that names one MCP version — a version module
# (`v2025_11_25`, `v2024_11_05_to_…`) or a `Version::V2025_11_25` — outside comments, `use`
# lines, `#[cfg(test)]` modules and version.rs (which defines the versions and converts
# nothing). A `match` arm, a macro rule keyed on a version, a function or macro call made for
# one version: each is one line naming it. The generated `mcp_if_member!` table
# (crates/mcpwire-types/src/generated/mcp/members.rs) is not counted: it is generated.
#
# usage: scripts/count-conversion-arms.sh [--list]   (prints the count, or every counted line)
set -euo pipefail
cd "$(dirname "$0")/../crates/mcpwire-model/src"
lines() {
    for f in *.rs */*.rs; do
        [ "$f" = version.rs ] && continue
        awk -v f="$f" '
            /^[[:space:]]*#\[cfg\(test\)\]/ { exit }
            /^[[:space:]]*\/\// { next }
            /^[[:space:]]*(pub(\([a-z]+\))? )?use / { next }
            /(^|[^A-Za-z0-9_])v20[0-9][0-9]_[0-9][0-9]_[0-9][0-9]|Version::V20[0-9][0-9]_/ {
                print f ":" FNR ": " $0
            }' "$f"
    done
}
if [ "${1:-}" = --list ]; then lines; else lines | wc -l; fi
