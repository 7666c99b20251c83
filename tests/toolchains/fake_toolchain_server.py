"""A misbehaving toolchain MCP server for client tests: ``python fake_toolchain_server.py MODE``.

Modes: ``crash`` (run_tests kills the process), ``hang`` (check never answers),
``text`` (results only as JSON text, no structured output; a ``conventions://fake``
resource).
"""

from __future__ import annotations

import json
import os
import sys
import time

from mcp.server.mcpserver import MCPServer


def build(mode: str) -> MCPServer:
    server: MCPServer = MCPServer(f"fake-{mode}", log_level="WARNING")

    def run_tests(files: dict[str, str], tests: dict[str, str]) -> str:
        if mode == "crash":
            print("fake server dying", file=sys.stderr, flush=True)
            os._exit(3)
        return json.dumps({"total": len(tests), "passed": len(tests)})

    def check(files: dict[str, str]) -> str:
        if mode == "hang":
            time.sleep(60)
        return json.dumps({"ok": True})

    server.add_tool(run_tests, name="run_tests", structured_output=False)
    server.add_tool(check, name="check", structured_output=False)

    def conventions() -> str:
        return f"conventions of the {mode} server"

    server.resource("conventions://fake", name="conventions")(conventions)
    return server


if __name__ == "__main__":
    build(sys.argv[1]).run("stdio")
