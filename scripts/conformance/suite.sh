# Sourced by run.sh and client.sh: installs the official MCP conformance suite (and Node 22
# when the system's Node is older) into a cache dir outside the repository and sets
# SUITE_VERSION, CACHE, NODE and SUITE.
SUITE_VERSION=0.2.0-alpha.12
CACHE=${MCPWIRE_CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpwire-conformance}
mkdir -p "$CACHE"

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
