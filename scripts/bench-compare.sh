#!/usr/bin/env bash
# Compares the criterion suite of two checkouts run by turns on this machine: before, after,
# before, after, ... Each turn is one `cargo xtask bench --runs 1 --no-write` in that checkout
# (its own xtask, its own target directory), and its medians are kept. Every benchmark is then
# read at the fastest of its turns on each side, as `cargo xtask bench` reads its runs, and the
# table gives after ÷ before. Taking turns puts both sides in the same slow and fast spells of a
# shared machine, which a record made an hour apart would not.
#
# usage: scripts/bench-compare.sh BEFORE_DIR AFTER_DIR [TURNS [CRITERION_ARGS...]]
#   BEFORE_DIR, AFTER_DIR  two checkouts of this repository (e.g. `git worktree add`), each
#                          beside ../shared as the README asks
#   TURNS                  runs per side (default 2); the whole suite takes ~8 min a run
#   CRITERION_ARGS         passed to the criterion harness (after `--`), e.g. a filter
#                          '^(tool_call_in_process|reply_success)/' to rerun a few groups
# Environment: OUT (default ./bench-compare) gets each turn's medians and the table
# (`compare.md`); TARGET_ROOT (default $OUT/targets) gets one target directory per side, so
# the two builds never share artifacts; BEFORE_TARGET and AFTER_TARGET name a side's target
# directory instead (one already built, say). LAYOUT=aligned builds both sides with every
# function and loop starting on a 64-byte line, so that the same machine code sits at the same
# place within its cache lines on both sides; the default layout lets the linker move it, which
# alone moves small rows by up to ±15% (docs/benchmarks.md). Its targets are
# $TARGET_ROOT/{before,after}-aligned. Stop it with Ctrl-C: every turn already kept stays.
set -euo pipefail

usage="usage: $0 BEFORE_DIR AFTER_DIR [TURNS [CRITERION_ARGS...]]"
before=${1:?$usage}
after=${2:?$usage}
turns=${3:-2}
shift $(($# < 3 ? $# : 3))
criterion_args=("$@")
out=${OUT:-$PWD/bench-compare}
targets=${TARGET_ROOT:-$out/targets}
suffix=
case ${LAYOUT:-default} in
    default) ;;
    aligned)
        export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-C llvm-args=-align-all-functions=6 -C llvm-args=-align-loops=64"
        suffix=-aligned
        ;;
    *)
        echo "bench-compare: LAYOUT is default or aligned, not ${LAYOUT}" >&2
        exit 2
        ;;
esac
mkdir -p "$out" "$targets"
before=$(cd "$before" && pwd)
after=$(cd "$after" && pwd)

# One turn of side $1 (before|after) in checkout $2; keeps its medians as $out/$1-$3.tsv.
turn() {
    local side=$1 dir=$2 k=$3 target
    case $side in
        before) target=${BEFORE_TARGET:-$targets/before$suffix} ;;
        *) target=${AFTER_TARGET:-$targets/after$suffix} ;;
    esac
    echo "bench-compare: $side turn $k of $turns ($(date -u +%H:%M:%S))" >&2
    (cd "$dir" && CARGO_TARGET_DIR=$target cargo xtask bench --runs 1 --no-write \
        ${criterion_args[@]+-- "${criterion_args[@]}"} >"$out/$side-$k.log" 2>&1) || {
        echo "bench-compare: $side turn $k failed; see $out/$side-$k.log" >&2
        exit 1
    }
    cp "$target/criterion/mcpwire-runs/run-1.tsv" "$out/$side-$k.tsv"
}

for k in $(seq 1 "$turns"); do
    turn before "$before" "$k"
    turn after "$after" "$k"
done

# group \t function \t median (ns) per line; fastest per benchmark on each side.
awk -F'\t' -v turns="$turns" -v layout="${LAYOUT:-default}" '
    FNR == 1 { side = (FILENAME ~ /\/before-[0-9]+\.tsv$/) ? "before" : "after" }
    {
        key = $1 "/" $2
        keys[key] = 1
        if (!((side, key) in best) || $3 < best[side, key]) best[side, key] = $3
        if (!((side, key) in worst) || $3 > worst[side, key]) worst[side, key] = $3
    }
    function show(ns) {
        if (ns >= 1e6) return sprintf("%.2f ms", ns / 1e6)
        if (ns >= 1e3) return sprintf("%.2f µs", ns / 1e3)
        return sprintf("%.0f ns", ns)
    }
    function spread(s, key) { return worst[s, key] / best[s, key] - 1 }
    END {
        printf "| benchmark | before | after | after ÷ before | spread before | spread after |\n"
        printf "| --- | --- | --- | --- | --- | --- |\n"
        n = 0
        for (key in keys) sorted[++n] = key
        for (i = 2; i <= n; i++) {
            v = sorted[i]
            for (j = i - 1; j >= 1 && sorted[j] > v; j--) sorted[j + 1] = sorted[j]
            sorted[j + 1] = v
        }
        slower = 0
        for (i = 1; i <= n; i++) {
            key = sorted[i]
            if (!(("before", key) in best) || !(("after", key) in best)) {
                printf "| `%s` | %s | %s | only one side | | |\n", key,
                    (("before", key) in best) ? show(best["before", key]) : "—",
                    (("after", key) in best) ? show(best["after", key]) : "—"
                continue
            }
            ratio = best["after", key] / best["before", key]
            mark = ratio > 1.05 ? " **slower**" : ""
            if (ratio > 1.05) slower++
            printf "| `%s` | %s | %s | %.3f×%s | %.0f%% | %.0f%% |\n", key,
                show(best["before", key]), show(best["after", key]), ratio, mark,
                100 * spread("before", key), 100 * spread("after", key)
        }
        printf "\n%d benchmarks on both sides read more than 5%% slower after, each at the fastest of %d turns a side, in the %s layout.\n", slower, turns, layout
    }
' "$out"/before-*.tsv "$out"/after-*.tsv | tee "$out/compare.md"
