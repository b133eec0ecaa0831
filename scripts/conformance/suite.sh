# The official MCP conformance suite, for the scripts that run it (sourced, with ROOT set):
# sets CACHE (MCPWIRE_CONFORMANCE_CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/mcpwire-conformance)
# and creates it; install_suite installs the suite (and Node 22 when the system's is older)
# into $CACHE and sets NODE and SUITE; build_example builds the example under test; score reads
# a run's counts from its output.

SUITE_VERSION=0.2.0-alpha.12
CACHE=${MCPWIRE_CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpwire-conformance}
mkdir -p "$CACHE"

# build_example PACKAGE EXAMPLE: builds that example (debug) and sets EXAMPLE_BIN to it.
build_example() {
    echo "building $2 of $1" >&2
    (cd "$ROOT" && cargo build --quiet -p "$1" --example "$2")
    EXAMPLE_BIN=${CARGO_TARGET_DIR:-$ROOT/target}/debug/examples/$2
}

install_suite() {
    # The suite needs Node >= 22 (fs.globSync): use the system's when new enough, else node@22.
    NODE=node
    major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
    PACKAGES=("@modelcontextprotocol/conformance@$SUITE_VERSION")
    if [ "$major" -lt 22 ]; then
        PACKAGES+=("node@22")
        NODE=$CACHE/node_modules/.bin/node
    fi
    SUITE=$CACHE/node_modules/@modelcontextprotocol/conformance/dist/index.js
    installed=$(cat "$CACHE/node_modules/@modelcontextprotocol/conformance/package.json" 2>/dev/null \
        | grep -o "\"version\": *\"$SUITE_VERSION\"" || true)
    if [ -z "$installed" ] || { [ "$NODE" != node ] && [ ! -x "$NODE" ]; }; then
        echo "installing ${PACKAGES[*]} into $CACHE" >&2
        npm install --no-audit --no-fund --loglevel=error --prefix "$CACHE" "${PACKAGES[@]}" >&2
    fi
}

# score LOG: "scenarios_passed scenarios_total checks_passed checks_total" of the scored
# scenarios, read from the suite's summary ("✓ name: N passed, M failed" lines), leaving out
# the ones it lists under "Not scored" (pending, extensions, added after the release). A scenario
# passes as the suite counts it: no failed check and at least one passed.
score() {
    "$NODE" -e '
const fs = require("fs");
const lines = fs.readFileSync(process.argv[1], "utf8").split("\n");
const unscored = new Set();
let inUnscored = false;
for (const l of lines) {
  if (l.startsWith("Not scored")) { inUnscored = true; continue; }
  const m = inUnscored && l.match(/^\s+[✓✗] (\S+) \(/);
  if (m) unscored.add(m[1]);
}
let sp = 0, st = 0, cp = 0, ct = 0;
for (const l of lines) {
  const m = l.match(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed$/);
  if (!m || unscored.has(m[2])) continue;
  const ok = +m[3], bad = +m[4];
  st++; if (bad === 0 && ok > 0) sp++;
  cp += ok; ct += ok + bad;
}
console.log(sp, st, cp, ct);' "$1"
}

