"""What a model pays to use avenir-mcp, measured on the binary as a client receives it.

Usage: python3 scripts/context_cost.py [path/to/avenir-mcp] [--check]

Prints two tables, talking JSON-RPC over stdio to the binary (no SDK needed):

1. Before the first question: for the default configuration, each toolset, `all` and the dynamic
   mode's start, with writes on, the characters of the tool definitions a model receives (each
   listed tool's name + description + input schema as compact JSON) and of the instructions.
2. Answers: for every read tool, the characters of the text content a model receives for one call
   with default arguments (only the required ones given), on the demo plan and on the heavy plan.

With --check it exits non-zero when a figure is over its ceiling (CEILINGS, ANSWER_CEILING): the
figures issue 24 set. .ci/run runs it with --check on the debug binary the tests built.
"""

import json
import os
import subprocess
import sys

from mcp_stdio import Server

CEILINGS = {"default": 20_000, "all": 35_000, "dynamic start": 8_000}
ANSWER_CEILING = 16_000
TODAY = "2026-09-25"
# The arguments a read tool requires; everything else is left to its default.
REQUIRED = {
    "forecast_balance": {"until": "2026-12"},
    # about a year, the longest span it reads: its largest first page
    "find_transactions": {"since_date": "2025-10-01"},
}


def start(binary, env, args=()):
    """A server initialised as a 2025-11-25 client, its instructions kept."""
    server = Server(binary, env, args)
    server.instructions = server.initialize("context-cost").get("instructions", "")
    return server


def tools_of(server):
    return server.request("tools/list", {})["tools"]


# The demo's sample statement (CSV, no currency named), compared with the plan's first account.
STATEMENT = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples",
                              "statements", "checking.csv"), encoding="utf-8").read()


def first_account(server):
    said = server.request("tools/call", {"name": "list_accounts", "arguments": {}})
    return said["structuredContent"]["result"][0]["id"]


def clean_env(**settings):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AVENIR_MCP_")}
    env.update(settings)
    return env


def definitions(tools):
    schema = lambda t: json.dumps(t["inputSchema"], separators=(",", ":"), ensure_ascii=False)
    return sum(len(t["name"]) + len(t.get("description", "")) + len(schema(t)) for t in tools)


def before_the_first_question(binary):
    """(configuration, tools, definitions, instructions) rows."""
    configurations = [("default", None), ("all", "all")]
    configurations += [(name, name) for name in toolset_names(binary)]
    rows = []
    for label, toolsets in configurations:
        settings = {"AVENIR_MCP_TOOLSETS": toolsets} if toolsets else {}
        server = start(binary, clean_env(**settings), ["--demo"])
        tools = tools_of(server)
        rows.append((label, len(tools), definitions(tools), len(server.instructions)))
        server.close()
    server = start(binary, clean_env(AVENIR_MCP_DYNAMIC_TOOLSETS="1"), ["--demo"])
    tools = tools_of(server)
    rows.append(("dynamic start", len(tools), definitions(tools), len(server.instructions)))
    server.close()
    return rows


def toolset_names(binary):
    """The toolsets the binary knows, as its dynamic mode lists them (`name: summary (...)`)."""
    server = start(binary, clean_env(AVENIR_MCP_DYNAMIC_TOOLSETS="1"), ["--demo"])
    said = server.request("tools/call", {"name": "list_toolsets", "arguments": {}})
    server.close()
    text = "".join(c.get("text", "") for c in said["content"])
    return [line.split(":", 1)[0] for line in text.splitlines() if ":" in line]


def answer_sizes(binary, plan):
    """{read tool: characters of its text content} for one call each on `plan`."""
    sandbox = subprocess.Popen(
        [binary, "sandbox", "--listen", "127.0.0.1:0", "--plan", plan],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=clean_env(AVENIR_MCP_TODAY=TODAY),
    )
    base = sandbox.stdout.readline().strip()
    state = f"/tmp/context-cost-{os.getpid()}-{plan}"
    env = clean_env(
        YNAB_API_KEY="sandbox",
        AVENIR_MCP_YNAB_URL=base,
        AVENIR_MCP_TOOLSETS="all",
        AVENIR_MCP_TODAY=TODAY,
        XDG_STATE_HOME=state,
    )
    server = start(binary, env)
    sizes = {}
    try:
        for tool in tools_of(server):
            if not tool.get("annotations", {}).get("readOnlyHint"):
                continue
            arguments = REQUIRED.get(tool["name"], {})
            if tool["name"] == "compare_statement":
                arguments = {"account_id": first_account(server), "statement": STATEMENT}
            result = server.request("tools/call", {"name": tool["name"], "arguments": arguments})
            text = "".join(c.get("text", "") for c in result["content"] if c["type"] == "text")
            sizes[tool["name"]] = (len(text), bool(result.get("isError")))
    finally:
        server.close()
        sandbox.terminate()
        sandbox.wait()
    return sizes


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    binary = args[0] if args else "target/release/avenir-mcp"
    over = []
    print("Before the first question (writes on): characters a model receives")
    print(f"{'configuration':14} {'tools':>5} {'definitions':>12} {'instructions':>13} {'total':>7}")
    for label, count, defs, instructions in before_the_first_question(binary):
        total = defs + instructions
        print(f"{label:14} {count:5} {defs:12,} {instructions:13,} {total:7,}")
        if label in CEILINGS and total > CEILINGS[label]:
            over.append(f"{label}: {total:,} > {CEILINGS[label]:,}")
    demo, heavy = answer_sizes(binary, "demo"), answer_sizes(binary, "heavy")
    print("\nAnswers with default arguments: characters of the text content")
    print(f"{'read tool':30} {'demo':>7} {'heavy':>7}")
    for name, (size, failed) in sorted(heavy.items(), key=lambda item: -item[1][0]):
        note = "  (an error)" if failed or demo[name][1] else ""
        print(f"{name:30} {demo[name][0]:7,} {size:7,}{note}")
        if failed or demo[name][1]:
            over.append(f"{name}: answered with an error")
        if size > ANSWER_CEILING:
            over.append(f"{name} on the heavy plan: {size:,} > {ANSWER_CEILING:,}")
    if over and "--check" in sys.argv:
        raise SystemExit("over a ceiling: " + "; ".join(over))


if __name__ == "__main__":
    main()
