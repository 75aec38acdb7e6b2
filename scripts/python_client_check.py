"""Drive avenir-mcp --demo with the official Python MCP client (pip install mcp), in both eras.

Usage: python3 scripts/python_client_check.py [path/to/avenir-mcp]
Prints what the client saw; exits non-zero when list_plans does not return the demo plan.
It is a manual check of interoperability with a client we did not write; the test suite drives
the same paths with rmcp's client and the built binary.
"""

import asyncio
import re
import sys

from mcp import Client, StdioServerParameters

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/avenir-mcp"
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


async def check(mode: str) -> None:
    params = StdioServerParameters(command=BINARY, args=["--demo"])
    async with Client(params, mode=mode) as client:
        tools = await client.list_tools()
        print(mode, "tools:", [t.name for t in tools.tools])
        result = await client.call_tool("list_plans", {})
        plans = result.structured_content["result"]
        print(mode, "list_plans:", plans)
        assert plans[0]["name"] == "Demo household", plans
        assert UUID.match(plans[0]["id"]), plans
        accounts = await client.call_tool("list_accounts", {"plan_id": "last-used"})
        checking = accounts.structured_content["result"][0]
        print(mode, "Checking:", checking["balance"])
        assert checking["balance"] == 3328.5
        guide = await client.read_resource("avenir-mcp://guide")
        assert "YNAB method" in guide.contents[0].text


async def main() -> None:
    for mode in ("auto", "legacy"):
        await check(mode)
    print("ok: the Python mcp client reads the demo plan in both eras")


asyncio.run(main())
