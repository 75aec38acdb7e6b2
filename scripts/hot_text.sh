#!/bin/bash
# Regenerates crates/avenir-mcp/link/hot-text.ld: the functions a stdio session on the heavy plan
# runs (every read tool once), to be placed together at the start of the release binary's code.
# Needs valgrind and python3; builds the release binary twice (without the list and with its map,
# then with the list). Functions that only a native run reaches (timing, CPU features) can be
# missed: `perf record -e page-faults -c 1 -d` on the final binary shows what still faults outside
# `.text.hot` (add those to crates/avenir-mcp/link/hot-text-native.txt).
# The list names functions as the compiler mangles them, so it holds for the toolchain and the
# Cargo.lock it was made with: after an upgrade, run this again (a stale list only leaves the
# layout as it was without it).
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${CARGO_TARGET_DIR:-target}
BIN=$TARGET/release/avenir-mcp
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
AVENIR_MCP_LINK_MAP=$WORK/avenir-mcp.map AVENIR_MCP_HOT_TEXT=off cargo build --release -p avenir-mcp
cp "$BIN" "$WORK/avenir-mcp"
BIN=$WORK/avenir-mcp
coproc SB { AVENIR_MCP_TODAY=2026-09-25 "$BIN" sandbox --plan heavy 2>/dev/null; }
read -r BASE <&"${SB[0]}"
mkfifo "$WORK/in"
YNAB_API_KEY=x AVENIR_MCP_YNAB_URL=$BASE AVENIR_MCP_TODAY=2026-09-25 \
  valgrind --tool=callgrind --dump-instr=yes --compress-strings=no --compress-pos=no \
  --callgrind-out-file="$WORK/callgrind.out" "$BIN" <"$WORK/in" >"$WORK/out" 2>/dev/null &
SERVER=$!
exec 3>"$WORK/in"
python3 - <<'PY' | while read -r line; do
import json
p = {"plan_id": "last-used"}
tools = [("list_plans", {}), ("list_accounts", p), ("forecast_balance", {**p, "until": "2027-03"}),
    ("list_category_groups", p), ("list_payees", {**p, "search": "merchant 1"}),
    ("list_scheduled_transactions", p),
    ("find_transactions", {**p, "since_date": "2026-01-01", "payee": "MERCHANT 07"}),
    ("get_monthly_summary", p), ("get_category_balances", p), ("get_budget_vs_actual", p),
    ("get_spending_trends", p), ("suggest_categories", p), ("find_recurring_charges", p),
    ("get_age_of_money", p), ("get_debt_payoff_plan", {**p, "monthly_budget": 500}),
    ("get_net_worth_trend", p), ("get_runway", p), ("get_savings_rate", p),
    ("get_underfunded_targets", p)]
print(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}}))
print(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
print(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
for i, (name, args) in enumerate(tools):
    print(json.dumps({"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call",
        "params": {"name": name, "arguments": args}}))
PY
  echo "$line" >&3
  id=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1]).get("id", ""))' "$line")
  if [ -n "$id" ]; then
    for _ in $(seq 600); do grep -q "\"id\":$id[,}]" "$WORK/out" && break; sleep 0.1; done
  fi
done
exec 3>&-
wait "$SERVER"
kill "$SB_PID" 2>/dev/null || true
python3 scripts/hot_text.py "$WORK/avenir-mcp.map" "$WORK/callgrind.out" "$BIN" \
  crates/avenir-mcp/link/hot-text-native.txt >crates/avenir-mcp/link/hot-text.ld
cargo build --release -p avenir-mcp
