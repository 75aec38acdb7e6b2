#!/usr/bin/env python3
"""Peak memory of the stdio server as a person's client sees it work: on the heavy plan, after
`initialize`, `tools/list` and one call of every read tool (every toolset listed).

    python3 scripts/peak_rss.py BINARY [--runs 3]

BINARY is an `avenir-mcp` binary (the release workflow builds it with
`cargo build --release --locked -p avenir-mcp --target x86_64-unknown-linux-gnu`). The sandbox
serving the heavy plan is that binary's own `sandbox` command, run in a process of its own, so
only the server is measured. Prints VmHWM (the peak resident set) and, at that moment, the
resident set split into private data (anonymous) and mapped files (mostly the binary's code).
Standard library only; Linux only (it reads /proc).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

from mcp_stdio import Server

# What a person would ask each read tool: the plan, and a month or a period where it takes one.
ARGUMENTS = {
    "list_plans": {},
    "get_monthly_summary": {"plan_id": "last-used", "month": "2026-08"},
    "get_category_balances": {"plan_id": "last-used", "month": "2026-08"},
    "get_budget_vs_actual": {"plan_id": "last-used", "month": "2026-08"},
    "get_spending_trends": {"plan_id": "last-used", "months_count": 24},
    "find_transactions": {"plan_id": "last-used", "since_date": "2025-10-01", "payee": "merchant"},
    "get_debt_payoff_plan": {"plan_id": "last-used", "strategy": "both"},
    "forecast_balance": {"plan_id": "last-used", "until": "2026-12"},
}


# The demo's sample statement (CSV, no currency named), compared with the heavy plan's first account.
STATEMENT = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples",
                              "statements", "checking.csv"), encoding="utf-8").read()


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise SystemExit(f"no {field} in /proc/{pid}/status")


def rollup_kib(pid):
    figures = {}
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            parts = line.split()
            if len(parts) >= 2 and parts[1].isdigit():
                figures[parts[0].rstrip(":")] = int(parts[1])
    return figures


def server_on(binary, base_url, state):
    env = dict(os.environ, YNAB_API_KEY="sandbox", AVENIR_MCP_YNAB_URL=base_url,
               AVENIR_MCP_WRITE="1", XDG_STATE_HOME=state, AVENIR_MCP_TODAY="2026-09-25",
               AVENIR_MCP_TOOLSETS="all")
    return Server(binary, env)


def one_run(binary, base_url):
    with tempfile.TemporaryDirectory() as state:
        server = server_on(binary, base_url, state)
        server.initialize("peak_rss")
        tools = server.request("tools/list", {})["tools"]
        accounts = server.request("tools/call", {"name": "list_accounts",
                                                 "arguments": {"plan_id": "last-used"}})
        first_account = accounts["structuredContent"]["result"][0]["id"]
        reads = [t["name"] for t in tools if t.get("annotations", {}).get("readOnlyHint")]
        for name in reads:
            arguments = ARGUMENTS.get(name, {"plan_id": "last-used"})
            if name == "compare_statement":
                arguments = {"plan_id": "last-used", "account_id": first_account,
                             "statement": STATEMENT}
            result = server.request("tools/call", {"name": name, "arguments": arguments})
            if result.get("isError"):
                text = result.get("content", [{}])[0].get("text", "")
                raise SystemExit(f"{name} answered an error: {text}")
        pid = server.process.pid
        peak, rollup = status_kib(pid, "VmHWM"), rollup_kib(pid)
        server.process.stdin.close()
        server.process.wait(timeout=10)
        return len(reads), peak, rollup


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sandbox = subprocess.Popen([args.binary, "sandbox", "--listen", "127.0.0.1:0", "--plan", "heavy"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env=dict(os.environ, AVENIR_MCP_TODAY="2026-09-25"))
    try:
        base_url = sandbox.stdout.readline().strip()
        if not base_url.startswith("http"):
            raise SystemExit(f"the sandbox printed no URL: {base_url!r}")
        for run in range(args.runs):
            count, peak, rollup = one_run(args.binary, base_url)
            print(f"run {run + 1}: {count} read tools; VmHWM {peak / 1024:.1f} MB "
                  f"(at the end: RSS {rollup.get('Rss', 0) / 1024:.1f} MB, "
                  f"anonymous {rollup.get('Anonymous', 0) / 1024:.1f} MB, "
                  f"files {(rollup.get('Rss', 0) - rollup.get('Anonymous', 0)) / 1024:.1f} MB)")
    finally:
        sandbox.terminate()
        sandbox.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
