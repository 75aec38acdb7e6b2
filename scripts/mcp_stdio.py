"""A minimal MCP client over stdio for the measuring scripts (standard library only): one
`avenir-mcp` process spoken to in JSON-RPC lines, a request at a time."""

import json
import subprocess


class Server:
    """One avenir-mcp process; `request` waits for the answer with its id."""

    def __init__(self, binary, env, args=()):
        self.process = subprocess.Popen([binary, *args], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        env=env, text=True)
        self.next_id = 0

    def initialize(self, client_name):
        """Initialises as a 2025-11-25 client; returns the `initialize` result."""
        result = self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                             "clientInfo": {"name": client_name, "version": "1"}})
        self.notify("notifications/initialized")
        return result

    def request(self, method, params):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit(f"the server closed its output during {method}")
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise SystemExit(f"{method}: {answer['error']}")
                return answer["result"]

    def notify(self, method):
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}) + "\n")
        self.process.stdin.flush()

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)
