#!/usr/bin/env bash
# The MCP App's browser test: the chart view (ui://avenir-mcp/charts.html) rendering the demo's
# real answers in Debian's Chromium, under a small test host speaking the extension's postMessage
# protocol (host.html); test.mjs gets the HTML and the answers from the built server itself. Then
# the confirmation page: a client declaring URL-mode elicitation asks for a delete, and the page
# the server sends it to is read and answered in the same Chromium.
#
#   scripts/mcp-app/run.sh
#
# Needs /usr/bin/chromium (Debian's package `chromium`; .ci/run installs it). Installs
# playwright-core (pinned in package.json and package-lock.json here; it drives that Chromium,
# and downloads no browser) with `npm ci` into target/mcp-app/, builds avenir-mcp, and writes
# docs/mcp-app-forecast.png and docs/mcp-app-forecast-dark.png (the other charts' screenshots stay
# in target/mcp-app/). Exit 1 when an assertion fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${AVENIR_MCP_APP_DIR:-$root/target/mcp-app}
started=$(date +%s)

if [[ ! -x /usr/bin/chromium ]]; then
    echo "mcp-app: /usr/bin/chromium is missing: apt-get install -y chromium" >&2
    exit 1
fi

mkdir -p "$work"
cd "$work"
stamp=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)
if [[ ! -f node_modules/.avenir-stamp || $(cat node_modules/.avenir-stamp) != "$stamp" ]]; then
    cp "$here/package.json" "$here/package-lock.json" .
    echo "mcp-app: installing the pinned playwright-core (npm ci) into $work"
    npm ci --no-audit --no-fund --loglevel=error
    echo "$stamp" > node_modules/.avenir-stamp
fi
echo "mcp-app: playwright-core $(node -p "require('./node_modules/playwright-core/package.json').version"), $(/usr/bin/chromium --version 2>/dev/null), Node $(node --version)"

echo "mcp-app: building avenir-mcp"
(cd "$root" && cargo build --quiet -p avenir-mcp)

node "$here/test.mjs" "$root/target/debug/avenir-mcp" "$root/docs" "$work"
echo "mcp-app: $(( $(date +%s) - started )) s"
