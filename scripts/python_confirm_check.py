"""Confirm a write through the official Python MCP client (pip install mcp), both eras.

Usage: python3 scripts/python_confirm_check.py [path/to/avenir-mcp]
Starts `avenir-mcp --demo` three times: the client answers the elicitation form with a yes on
2026-07-28 (the input-required round trip, retried by the client itself) and on 2025-11-25 (the
question asked during the call), then without an elicitation callback (a confirmation code).
Exits non-zero when a path does not end as the seed says. A manual interoperability check; the
test suite drives the same paths with rmcp's client.
"""

import asyncio
import sys

from mcp import Client, StdioServerParameters
from mcp import types

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/avenir-mcp"
QUESTION = "Budget Restaurants for 2026-09-01: 120.00 → 150.00 (available -22.50 → +7.50)?"
asked = []


async def say_yes(context, params):
    asked.append(params.message)
    return types.ElicitResult(action="accept", content={"value": True})


async def restaurants_id(client):
    groups = await client.read_resource("ynab://plans/last-used/categories")
    import json

    for group in json.loads(groups.contents[0].text):
        for category in group["categories"]:
            if category["name"] == "Restaurants":
                return category["category_id"]
    raise SystemExit("no Restaurants category")


async def check(mode, callback):
    asked.clear()
    params = StdioServerParameters(command=BINARY, args=["--demo"])
    async with Client(params, mode=mode, elicitation_callback=callback) as client:
        category = await restaurants_id(client)
        args = {"plan_id": "last-used", "month": "2026-09", "category_id": category, "amount": 150}
        result = await client.call_tool("set_category_budget", args)
        out = result.structured_content
        if callback is None:
            assert out["status"] == "confirmation_required", out
            assert QUESTION in out["message"], out["message"]
            result = await client.call_tool(
                "set_category_budget", {**args, "confirmation": out["confirmation"]}
            )
            out = result.structured_content
        else:
            assert asked == [QUESTION], asked
        assert out["status"] == "applied", out
        print(f"{mode:6} {'with' if callback else 'without'} elicitation: {out['message']}")


async def main():
    await check("auto", say_yes)
    await check("legacy", say_yes)
    await check("auto", None)
    print("ok: every confirmation path works with the Python mcp client")


asyncio.run(main())
