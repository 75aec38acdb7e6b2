"""The dynamic mode with the official Python MCP client (pip install mcp; checked with mcp 2.3.0).

Usage: python3 scripts/python_dynamic_check.py [path/to/avenir-mcp]

With AVENIR_MCP_DYNAMIC_TOOLSETS=1 the client starts with the core and the two toolset tools,
enables `analysis`, is told the tool list changed, lists again and calls forecast_balance; without
the opt-in the same client gets the default toolsets' static list. .ci/run installs the package and
runs it on the debug binary the tests built. Exits non-zero on the first difference.
"""

import asyncio
import os
import sys

import mcp.types as types
from mcp import Client, StdioServerParameters

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/avenir-mcp"
CORE = ["list_plans", "list_accounts", "list_category_groups", "list_toolsets", "enable_toolset"]


def server(dynamic: bool) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AVENIR_MCP_")}
    if dynamic:
        env["AVENIR_MCP_DYNAMIC_TOOLSETS"] = "1"
    return StdioServerParameters(command=BINARY, args=["--demo"], env=env)


async def dynamic_mode() -> None:
    changed = asyncio.Event()

    async def on_message(message) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    async with Client(server(True), mode="legacy", message_handler=on_message) as client:
        first = [t.name for t in (await client.list_tools()).tools]
        print("dynamic, at the start:", first)
        assert first == CORE, first
        enabled = await client.call_tool("enable_toolset", {"toolset": "analysis"})
        assert not enabled.is_error, enabled
        await asyncio.wait_for(changed.wait(), timeout=10)
        print("dynamic: notifications/tools/list_changed received")
        again = [t.name for t in (await client.list_tools()).tools]
        assert "forecast_balance" in again, again
        forecast = await client.call_tool(
            "forecast_balance", {"plan_id": "last-used", "until": "2026-12"}
        )
        assert not forecast.is_error, forecast
        assert forecast.structured_content["currency"] == "EUR", forecast.structured_content
        print("dynamic: forecast_balance answered after enabling analysis")


async def static_mode() -> None:
    async with Client(server(False), mode="legacy") as client:
        names = [t.name for t in (await client.list_tools()).tools]
        print("static:", len(names), "tools")
        assert "list_toolsets" not in names and "forecast_balance" not in names, names
        assert "find_transactions" in names and "set_category_budget" in names, names


async def main() -> None:
    await dynamic_mode()
    await static_mode()
    print("ok: the Python mcp client in the dynamic mode and without it")


asyncio.run(main())
