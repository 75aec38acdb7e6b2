"""The local HTTP transport's session end with the official Python MCP client (pip install mcp;
checked with mcp 2.3.0).

Usage: python3 scripts/python_http_close_check.py [path/to/avenir-mcp]

Starts `avenir-mcp --demo` with AVENIR_MCP_TRANSPORT=http on a free port, connects with the SDK's
streamable HTTP client (a 2025-11-25 session), calls list_plans and leaves: the SDK then ends its
session with a DELETE, and logs "Session termination failed: <status>" unless the answer is 200 or
204. Exits non-zero when it does, or on any other difference.
"""

import asyncio
import logging
import os
import subprocess
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/avenir-mcp"
TOKEN = "python-http-close-check-token"


class Heard(logging.Handler):
    """Every warning the SDK logs."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def start() -> tuple[subprocess.Popen, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AVENIR_MCP_")}
    env.update(AVENIR_MCP_TRANSPORT="http", AVENIR_MCP_PORT="0", AVENIR_MCP_HTTP_TOKEN=TOKEN)
    server = subprocess.Popen(
        [BINARY, "--demo"], env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    for line in server.stderr:
        if "http://" in line:
            return server, line[line.index("http://") :].strip()
    server.kill()
    raise SystemExit("the server did not say where it listens")


async def session(url: str) -> None:
    client = create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
    async with client, streamable_http_client(url, http_client=client) as (read, write):
        async with ClientSession(read, write) as mcp:
            await mcp.initialize()
            plans = await mcp.call_tool("list_plans", {})
            assert not plans.is_error, plans
            print("http: list_plans answered:", plans.structured_content["result"][0]["name"])


def main() -> None:
    heard = Heard()
    logging.getLogger("mcp").addHandler(heard)
    server, url = start()
    try:
        asyncio.run(session(url))
    finally:
        server.kill()
        server.wait()
    failed = [m for m in heard.messages if "Session termination failed" in m]
    assert not failed, failed
    print("ok: the Python mcp client ended its HTTP session without a warning")


main()
