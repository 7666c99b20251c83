"""codeproof as an MCP server, driven by the official MCP SDK client: over streamable
HTTP under /mcp (with the API tokens) and over stdio (``codeproof mcp serve``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from srv_world import GOOD, engine, live_server, server_settings

from codeproof.server.state import ServerState

SCRIPT = Path(__file__).with_name("srv_script.py")


async def call(session: ClientSession, tool: str, **args: Any) -> Any:
    result = await session.call_tool(tool, args)
    assert not result.is_error, result.content
    return result.structured_content


async def wait_for(session: ClientSession, thread_id: str, status: str) -> dict[str, Any]:
    with anyio.fail_after(60):
        while True:
            found = await call(session, "run_status", thread_id=thread_id)
            if found["status"] == status:
                return found  # type: ignore[no-any-return]
            await anyio.sleep(0.05)


async def drive(session: ClientSession) -> None:
    """A whole run through the tools: every question answered, then files and report."""
    await session.initialize()
    names = {t.name for t in (await session.list_tools()).tools}
    assert names == {"start_run", "run_status", "answer", "continue_run", "project_files", "report"}
    started = await call(session, "start_run", request="a slugify function")
    tid = started["thread_id"]
    status = await wait_for(session, tid, "interrupted")
    question = status["question"]
    assert question["kind"] == "clarify" and question["default"] == {"answers": [], "proceed": True}
    assert status["answer_schema"]["title"] == "ClarifyAnswer"
    bad = await session.call_tool("answer", {"thread_id": tid, "answer": {"answers": []}})
    assert bad.is_error and "give at least one answer" in str(bad.content)
    await call(session, "answer", thread_id=tid, answer={"answers": ["ASCII only"]})
    status = await wait_for(session, tid, "interrupted")
    assert status["question"]["kind"] == "modules"
    await call(session, "answer", thread_id=tid, answer=status["question"]["default"])
    status = await wait_for(session, tid, "interrupted")
    assert status["question"]["kind"] == "escalation"
    await call(session, "answer", thread_id=tid, answer={"action": "react", "hint": "use re.sub"})
    status = await wait_for(session, tid, "idle")
    assert status["run"]["status"] == "done" and status["project_ready"]
    files = await call(session, "project_files", thread_id=tid)
    assert files["slugify.py"] == GOOD and "codeproof-report.json" in files
    report = await call(session, "report", thread_id=tid)
    assert report["modules"][0]["status"] == "passed"
    missing = await session.call_tool("run_status", {"thread_id": "someone-elses"})
    assert missing.is_error and "no thread 'someone-elses'" in str(missing.content)


def test_mcp_over_streamable_http_with_a_token(tmp_path):
    state = ServerState.build(engine(server_settings(tmp_path / "home")))
    state.db.open()
    _, secret = state.tokens.create("ide")

    async def main(url: str) -> None:
        async with httpx2.AsyncClient() as http:
            hello = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
            for headers in ({}, {"x-api-key": "cp_wrong"}):
                refused = await http.post(f"{url}/mcp", json=hello, headers=headers)
                assert refused.status_code == 401, refused.text
                assert refused.json()["error"] == "AuthError"
        async with (
            httpx2.AsyncClient(headers={"x-api-key": secret}, timeout=60) as http,
            streamable_http_client(f"{url}/mcp", http_client=http) as (read, write, *_),
            ClientSession(read, write) as session,
        ):
            await drive(session)

    with live_server(state) as url:
        anyio.run(main, url)


def test_mcp_over_stdio(tmp_path):
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(SCRIPT), "stdio", str(tmp_path / "home")],
        cwd=str(SCRIPT.parent),
    )

    async def main() -> None:
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write) as session,
        ):
            await drive(session)

    anyio.run(main)
