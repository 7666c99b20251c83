"""An in-memory toolchain double (like httpx's ``MockTransport``): a handler answers.

It offers what the engine and the workflow use of a started toolchain client (the
:class:`~codeproof.toolchains.api.ToolchainAPI`, ``calls`` and ``close``), validates its
input exactly as a real toolchain does, and records every call as the real client does
(:class:`~codeproof.toolchains.client.ToolchainClient`), so orchestration is tested
without a sandbox::

    def handler(request: ToolRequest) -> TestReport | ProgramRun:
        ...

    toolchain = MemoryToolchain(handler, conventions="...")

It never runs code itself: what the handler does is the test's business.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from codeproof.core.errors import ToolchainError
from codeproof.core.types import ProgramRun, TestReport
from codeproof.toolchains.base import validate_files, validate_sources
from codeproof.toolchains.records import ToolCallRecord


@dataclass(frozen=True)
class ToolRequest:
    """One call of the toolchain, as the handler sees it."""

    tool: Literal["run_tests", "run"]
    files: dict[str, str]
    tests: dict[str, str] = field(default_factory=dict)
    args: list[str] = field(default_factory=list)
    stdin: str | None = None
    timeout_s: float | None = None


Answer = TypeVar("Answer", TestReport, ProgramRun)

Handler = Callable[[ToolRequest], TestReport | ProgramRun]
"""Answers one request: a :class:`TestReport` for ``run_tests``, a :class:`ProgramRun`
for ``run``."""


class MemoryToolchain:
    """A toolchain client whose calls a handler answers.

    Args:
        handler: Answers each request.
        language: The language it stands for (named in errors).
        conventions: The text its ``conventions://`` resource would give.
    """

    def __init__(
        self, handler: Handler, *, language: str = "memory", conventions: str = ""
    ) -> None:
        self.handler = handler
        self.language = language
        self._conventions = conventions
        self.calls: list[ToolCallRecord] = []
        self.closed = False

    def run_tests(
        self, files: dict[str, str], tests: dict[str, str], timeout_s: float | None = None
    ) -> TestReport:
        clean_files, clean_tests = validate_sources(files, tests)
        request = ToolRequest("run_tests", clean_files, clean_tests, timeout_s=timeout_s)
        report = self._answer(request, TestReport)
        summary = f"{report.passed}/{report.total} passed"
        self._record(request, summary)
        return report

    def run(
        self,
        files: dict[str, str],
        command_args: list[str],
        stdin: str | None = None,
        timeout_s: float | None = None,
    ) -> ProgramRun:
        request = ToolRequest(
            "run", validate_files(files), args=list(command_args), stdin=stdin, timeout_s=timeout_s
        )
        result = self._answer(request, ProgramRun)
        self._record(request, f"exit code {result.exit_code}")
        return result

    def conventions(self) -> str:
        return self._conventions

    def close(self) -> None:
        self.closed = True

    def _answer(self, request: ToolRequest, kind: type[Answer]) -> Answer:
        if self.closed:
            raise ToolchainError("the toolchain is closed", language=self.language)
        answer = self.handler(request)
        if not isinstance(answer, kind):
            raise TypeError(f"the handler answered {request.tool} with {type(answer).__name__}")
        return answer

    def _record(self, request: ToolRequest, result: str) -> None:
        arguments: dict[str, object] = {"files": sorted(request.files)}
        if request.tool == "run_tests":
            arguments["tests"] = sorted(request.tests)
        else:
            arguments["command_args"] = request.args
        record = ToolCallRecord(
            tool=request.tool, arguments=arguments, result=result, ok=True, duration_s=0.0
        )
        self.calls.append(record)
