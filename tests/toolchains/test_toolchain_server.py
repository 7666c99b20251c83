"""The server as an external MCP client sees it, its error handling, and the Node reporter."""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import IO, Any

import pytest
from mcp import Client
from toolchain_cases import CASES, NODE, PYTHON

from codeproof.core.config import load_settings
from codeproof.core.errors import SandboxUnavailableError
from codeproof.languages.python.toolchain import PythonToolchain
from codeproof.sandbox.base import Limits, SandboxSession
from codeproof.sandbox.bwrap_backend import BubblewrapSandbox
from codeproof.sandbox.registry import limits_from_settings, open_session
from codeproof.toolchains.base import asset_text
from codeproof.toolchains.junit import parse_junit_xml
from codeproof.toolchains.registry import get_toolchain
from codeproof.toolchains.server import MAX_DIAGNOSTICS, ToolchainService, build_server


def codeproof_script() -> str:
    """The installed ``codeproof`` console script (what a client configuration names)."""
    beside = Path(sys.executable).with_name("codeproof")
    found = str(beside) if beside.exists() else shutil.which("codeproof")
    assert found, "the codeproof console script is not installed"
    return found


def _send(stdin: IO[str], message: dict[str, Any]) -> None:
    stdin.write(json.dumps(message) + "\n")
    stdin.flush()


def _answer(stdout: IO[str], request_id: int) -> dict[str, Any]:
    for line in stdout:
        message = json.loads(line)
        if message.get("id") == request_id:
            return dict(message)
    raise AssertionError(f"the server closed stdout before answering request {request_id}")


@pytest.mark.docker
def test_external_client_over_stdio(docker_daemon: None) -> None:
    """`codeproof mcp toolchain python` as a subprocess, spoken to in plain JSON-RPC lines."""
    process = subprocess.Popen(
        [codeproof_script(), "mcp", "toolchain", "python", "--sandbox", "docker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        _send(
            process.stdin,
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "external-test", "version": "1"},
                },
            },
        )
        init = _answer(process.stdout, 1)["result"]
        assert init["serverInfo"]["name"] == "codeproof-python"
        _send(process.stdin, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        _send(process.stdin, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        names = {tool["name"] for tool in _answer(process.stdout, 2)["result"]["tools"]}
        assert names == {"run_tests", "check", "run"}
        arguments = {"files": PYTHON.wrong, "tests": PYTHON.tests}
        _send(
            process.stdin,
            {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "tools/call",
                "params": {"name": "run_tests", "arguments": arguments},
            },
        )
        result = _answer(process.stdout, 3)["result"]
        assert result["isError"] is False
        report = result["structuredContent"]
        assert (report["total"], report["passed"], report["failed"]) == (3, 1, 2)
        process.stdin.close()  # end of session: the server must exit by itself
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def _no_sandbox(language: str, limits: Limits) -> AbstractContextManager[SandboxSession]:
    raise SandboxUnavailableError(
        "neither Docker nor bubblewrap is usable", backend="auto", hint="install docker.io"
    )


async def test_sandbox_failures_and_bad_input_are_tool_errors() -> None:
    service = ToolchainService(PythonToolchain(), _no_sandbox, Limits())
    async with Client(build_server(service)) as client:
        failed = await client.call_tool("check", {"files": {"a.py": "x = 1\n"}})
        assert failed.is_error
        text = failed.content[0].text  # type: ignore[union-attr]
        assert "neither Docker nor bubblewrap is usable" in text and "install docker.io" in text

        empty = await client.call_tool("run", {"files": {"a.py": ""}, "command_args": []})
        assert empty.is_error

        escaping = await client.call_tool("check", {"files": {"../a.py": ""}})
        assert escaping.is_error and "invalid path" in escaping.content[0].text  # type: ignore[union-attr]

        resources = await client.list_resources()
        assert [str(r.uri) for r in resources.resources] == ["conventions://python"]


@contextmanager
def _node_session() -> Iterator[SandboxSession]:
    with open_session(load_settings(), "node", backend="docker") as session:
        yield session


@pytest.mark.docker
def test_own_junit_reporter_matches_the_expected_layout(docker_daemon: None) -> None:
    """The reporter shipped for Node versions without a built-in junit reporter."""
    tests = {
        "calc.test.js": NODE.tests["calc.test.js"]
        + "test('skip', { skip: 'later' }, () => {});\n"
        + "test('parent', async (t) => {\n"
        + "  await t.test('kid', () => { throw new TypeError('boom'); });\n"
        + "});\n"
    }
    with _node_session() as session:
        session.put_files(
            {
                **NODE.wrong,
                **tests,
                "own.mjs": "export { junitReporter as default } from './reporter.mjs';\n",
                "reporter.mjs": asset_text("codeproof.languages.javascript", "junit-reporter.mjs"),
            }
        )
        command = [
            "node", "--test", "--test-reporter=./own.mjs", "--test-reporter-destination=r.xml",
            "calc.test.js",
        ]  # fmt: skip
        result = session.run(command, timeout_s=60)
        document = session.read_file("r.xml")
    assert document is not None, result.stderr
    cases = parse_junit_xml(document)
    assert [(case.suites, case.name, case.outcome) for case in cases] == [
        ((), "add", "failed"),
        ((), "sub", "passed"),
        ((), "mul", "failed"),
        ((), "skip", "skipped"),
        (("parent",), "kid", "failed"),
    ]
    assert "6 !== 5" in cases[0].message
    assert cases[3].message == "later"
    assert cases[4].message.startswith("TypeError: boom")


@pytest.mark.bwrap
@pytest.mark.parametrize("toolchain", sorted(CASES))
def test_toolchains_also_run_on_bubblewrap(toolchain: str) -> None:
    """Nothing in the toolchains depends on the Docker backend."""
    settings = load_settings(sandbox={"backend": "bubblewrap"})
    cases = CASES[toolchain]
    if not BubblewrapSandbox(settings).can_serve(cases.toolchain):
        pytest.skip("bubblewrap cannot serve this language here")
    service = ToolchainService(
        get_toolchain(toolchain),
        functools.partial(open_session, settings),
        limits_from_settings(settings),
    )
    report = service.run_tests(cases.wrong, cases.tests)
    assert (report.total, report.passed, report.failed) == (3, 1, 2)


@pytest.mark.docker
def test_check_caps_the_number_of_diagnostics(docker_daemon: None) -> None:
    settings = load_settings(sandbox={"backend": "docker"})
    service = ToolchainService(
        get_toolchain("python"), functools.partial(open_session, settings), Limits()
    )
    lint = "".join(f"import mod{i}\n" for i in range(MAX_DIAGNOSTICS + 5))  # F401 each
    report = service.check({"many.py": lint, "broken.py": "def f(:\n"})
    assert len(report.diagnostics) == MAX_DIAGNOSTICS
    assert report.diagnostics[0].file == "broken.py"  # errors come first
    assert "6 more diagnostics not shown" in report.message
    assert not report.ok
