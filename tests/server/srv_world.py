"""The server tests' world: the workflow's scripted model (tests/workflow/wf_world.py),
a scripted toolchain double that runs nothing, and engines and servers built on them.

The toolchain double judges code by its text: the world's known good slugify passes
every test, any other code fails all but one. It never executes generated code.
"""

from __future__ import annotations

import ast
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "workflow"))

from wf_world import BAD_1, BAD_2, GOOD, SLUGIFY, TESTS, World

from codeproof.core.config import Settings, load_settings
from codeproof.core.types import Module, ProgramRun, TestCase, TestReport
from codeproof.server.app import create_app
from codeproof.server.engine import Engine
from codeproof.server.state import ServerState
from codeproof.workflow.deps import ToolchainLike

__all__ = ["BAD_1", "BAD_2", "GOOD", "World"]

KEBAB = Module(
    name="kebab",
    purpose="Join the words of a text with hyphens.",
    language="python",
    public_interface="kebab(text: str) -> str",
)
KEBAB_CODE = 'def kebab(text):\n    return "-".join(text.lower().split())\n'
KEBAB_TESTS = """from kebab import kebab


def test_words():
    assert kebab("Hello World") == "hello-world"


def test_one_word():
    assert kebab("a") == "a"
"""
TWO_MODULES = World(
    modules=[SLUGIFY, KEBAB],
    code={"slugify": GOOD, "kebab": KEBAB_CODE},
    tests={"slugify": TESTS, "kebab": KEBAB_TESTS},
)
"""Two modules that pass at once: a run long enough to be killed in the middle."""

ESCALATING = World(
    questions=[["Keep unicode letters?"]],
    code={"slugify": BAD_1},
    repairs={"slugify": [BAD_2, GOOD]},
    hinted={"slugify": ("use re.sub", GOOD)},
)
"""Asks one clarifying question, then fails until a repair follows a hint mentioning
re.sub, so every kind of question comes up."""


def test_names(tests: dict[str, str]) -> list[str]:
    names: list[str] = []
    for text in tests.values():
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        names += [
            n.name
            for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef) and n.name.startswith("test")
        ]
    return names


class ScriptedToolchain:
    """A toolchain double: reports by code text, runs nothing."""

    def __init__(self) -> None:
        self.calls: list[Any] = []
        self.closed = False

    def run_tests(
        self, files: dict[str, str], tests: dict[str, str], timeout_s: float | None = None
    ) -> TestReport:
        self.calls.append({"tool": "run_tests", "files": sorted(files)})
        names = test_names(tests)
        good = GOOD in files.values()
        cases = [
            TestCase(
                name=n,
                outcome="passed" if good or i == 0 else "failed",
                message="" if good or i == 0 else f"AssertionError in {n}",
            )
            for i, n in enumerate(names)
        ]
        passed = sum(1 for c in cases if c.outcome == "passed")
        return TestReport(total=len(cases), passed=passed, failed=len(cases) - passed, tests=cases)

    def run(
        self,
        files: dict[str, str],
        command_args: list[str],
        stdin: str | None = None,
        timeout_s: float | None = None,
    ) -> ProgramRun:
        self.calls.append({"tool": "run"})
        return ProgramRun(exit_code=0, stdout="[]", stderr="")

    def conventions(self) -> str:
        return "Put module X in X.py and its tests in test_X.py (pytest)."

    def close(self) -> None:
        self.closed = True


def scripted_toolchains(language: str) -> ToolchainLike:
    return ScriptedToolchain()


def server_settings(home: Path, **server: Any) -> Settings:
    """Settings with everything under ``home``; one candidate, few attempts."""
    return load_settings(
        home=home,
        workflow={"candidates": 1, "max_attempts": 2, "max_clarify_rounds": 2},
        server={"port": 0, **server},
        llm={"cache": False},
    )


def engine(settings: Settings, world: World = ESCALATING, toolchains: Any = None) -> Engine:
    return Engine(
        settings,
        world.model(),
        toolchains or scripted_toolchains,
        ("python", "javascript", "java"),
    )


@contextmanager
def live_server(state: ServerState, *, mcp: bool = True) -> Iterator[str]:
    """The app on a free loopback port in a thread; yields its base URL."""
    config = uvicorn.Config(
        create_app(state, mcp=mcp),
        host="127.0.0.1",
        port=0,
        log_level="warning",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
