"""One toolchain as an MCP server (official ``mcp`` SDK, stdio transport).

Tools ``run_tests``, ``check`` and ``run`` have JSON-schema'd inputs and structured
outputs (the models of :mod:`codeproof.core.types`); the resource
``conventions://<language>`` tells agents how to lay out modules and tests.

Every tool call opens its own sandbox session and closes it before answering. A
session per call costs a container start (about half a second with Docker on 2 cores)
but gives each call an empty workspace, lets concurrent calls run side by side, and
guarantees that nothing a call started (e.g. an infinite loop killed at its timeout)
survives into the next call; ``codeproof mcp toolchain`` starts the next session while
a call runs (:mod:`codeproof.sandbox.warm`, ``sandbox.warm``). Bad input and sandbox
failures become MCP tool errors with a clear message; the server itself keeps answering.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Annotated, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from codeproof import __version__
from codeproof.core.errors import CodeproofError, InputError
from codeproof.core.types import CheckReport, ProgramRun, TestReport
from codeproof.sandbox.base import Limits, SandboxSession
from codeproof.toolchains.base import Toolchain, validate_files, validate_sources

logger = logging.getLogger(__name__)

MAX_TIMEOUT_S = 600.0
MAX_DIAGNOSTICS = 200
"""Diagnostics returned by ``check`` at most (errors first)."""
T = TypeVar("T")

SessionOpener = Callable[[str, Limits], AbstractContextManager[SandboxSession]]
"""``(sandbox_language, limits) -> session`` context manager, e.g.
``functools.partial(codeproof.sandbox.registry.open_session, settings)``."""

FilesArg = Annotated[
    dict[str, str],
    Field(description="Source files: relative path -> content (e.g. {'calc.py': '...'})."),
]
TestsArg = Annotated[
    dict[str, str],
    Field(description="Test files: relative path -> content (e.g. {'test_calc.py': '...'})."),
]
TimeoutArg = Annotated[
    float | None,
    Field(
        gt=0,
        le=MAX_TIMEOUT_S,
        description="Seconds the run may take (default: the server's sandbox.timeout_s).",
    ),
]
ArgsArg = Annotated[
    list[str],
    Field(min_length=1, description="Arguments after the language runtime (see the tool)."),
]
StdinArg = Annotated[str | None, Field(description="Text fed to the program's standard input.")]


@dataclass(frozen=True)
class ToolchainService:
    """The tools of one toolchain, without the MCP layer.

    Attributes:
        toolchain: What runs (python, node, java).
        open_session: Opens a sandbox session for the toolchain's image.
        limits: Limits of each session; ``limits.timeout_s`` is the default timeout.
    """

    toolchain: Toolchain
    open_session: SessionOpener
    limits: Limits

    def _timeout(self, timeout_s: float | None) -> float:
        return timeout_s if timeout_s is not None else self.limits.timeout_s

    def run_tests(
        self, files: Mapping[str, str], tests: Mapping[str, str], timeout_s: float | None = None
    ) -> TestReport:
        """Run ``tests`` against ``files`` in a fresh sandbox session."""
        clean_files, clean_tests = validate_sources(files, tests)
        with self.open_session(self.toolchain.sandbox_language, self.limits) as session:
            return self.toolchain.run_tests(
                session, clean_files, clean_tests, self._timeout(timeout_s)
            )

    def check(self, files: Mapping[str, str]) -> CheckReport:
        """Compile/lint ``files`` in a fresh sandbox session."""
        clean = validate_files(files, "files")
        if not clean:
            raise InputError("files: nothing to check", hint="pass at least one source file")
        with self.open_session(self.toolchain.sandbox_language, self.limits) as session:
            report = self.toolchain.check(session, clean)
        return _capped(report)

    def run(
        self,
        files: Mapping[str, str],
        command_args: Sequence[str],
        stdin: str | None = None,
        timeout_s: float | None = None,
    ) -> ProgramRun:
        """Run a program of ``files`` in a fresh sandbox session."""
        clean = validate_files(files, "files")
        if not command_args:
            raise InputError("command_args: empty", hint="give at least the script or main class")
        with self.open_session(self.toolchain.sandbox_language, self.limits) as session:
            return self.toolchain.run(
                session, clean, list(command_args), stdin, self._timeout(timeout_s)
            )


def _capped(report: CheckReport) -> CheckReport:
    if len(report.diagnostics) <= MAX_DIAGNOSTICS:
        return report
    ordered = sorted(report.diagnostics, key=lambda d: d.severity != "error")
    note = f"{len(ordered) - MAX_DIAGNOSTICS} more diagnostics not shown"
    return report.model_copy(
        update={
            "diagnostics": ordered[:MAX_DIAGNOSTICS],
            "message": "; ".join(part for part in (report.message, note) if part),
        }
    )


def _as_tool_result(call: Callable[[], T]) -> T:
    """Run a tool body; codeproof errors become MCP tool errors with their message and fix."""
    try:
        return call()
    except CodeproofError as exc:
        logger.info("tool call failed: %s", exc)
        raise ToolError(str(exc)) from exc


def _instructions(toolchain: Toolchain) -> str:
    return (
        f"Runs {toolchain.language} code in an isolated sandbox (no network, resource limits, "
        "a fresh workspace per call). Read the resource "
        f"conventions://{toolchain.language} before writing files. Tools: run_tests (exact "
        "counts from JUnit XML), check (compile/lint diagnostics), run (a program with a CLI)."
    )


def build_server(service: ToolchainService) -> MCPServer:
    """The MCP server of one toolchain (run it with ``server.run("stdio")``)."""
    toolchain = service.toolchain
    server: MCPServer = MCPServer(
        f"codeproof-{toolchain.name}",
        title=f"codeproof {toolchain.language} toolchain",
        instructions=_instructions(toolchain),
        version=__version__,
        log_level="WARNING",
    )
    safe = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    def run_tests(files: FilesArg, tests: TestsArg, timeout_s: TimeoutArg = None) -> TestReport:
        return _as_tool_result(lambda: service.run_tests(files, tests, timeout_s))

    def check(files: FilesArg) -> CheckReport:
        return _as_tool_result(lambda: service.check(files))

    def run(
        files: FilesArg, command_args: ArgsArg, stdin: StdinArg = None, timeout_s: TimeoutArg = None
    ) -> ProgramRun:
        return _as_tool_result(lambda: service.run(files, command_args, stdin, timeout_s))

    server.add_tool(
        run_tests,
        name="run_tests",
        title="Run tests",
        description=f"Run {toolchain.language} tests against source files in the sandbox. "
        "Counts (total, passed, failed, errors, skipped) come from the framework's JUnit XML "
        "report; failure messages are included, output is truncated.",
        annotations=safe,
    )
    server.add_tool(
        check,
        name="check",
        title="Compile / lint",
        description=f"Compile or lint {toolchain.language} files in the sandbox; diagnostics "
        "with file, line, column and message. ok is false when any diagnostic is an error.",
        annotations=safe,
    )
    server.add_tool(
        run,
        name="run",
        title="Run a program",
        description=f"Run a {toolchain.language} program of the given files in the sandbox "
        f"with command line arguments and optional stdin: {toolchain.run_usage}. Returns the "
        "exit code and the (truncated) output.",
        annotations=safe,
    )

    def conventions() -> str:
        return toolchain.conventions

    server.resource(
        f"conventions://{toolchain.language}",
        name=f"{toolchain.language}-conventions",
        title=f"{toolchain.language} module and test conventions",
        description="How a module and its tests are laid out and imported, which test "
        "framework and assertion style to use.",
        mime_type="text/markdown",
    )(conventions)
    return server
