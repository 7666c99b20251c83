"""Structured inputs and outputs of the toolchain tools (shared by servers and clients)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Outcome = Literal["passed", "failed", "error", "skipped"]


class TestCase(BaseModel):
    """One test's result, read from a machine-readable report (JUnit XML)."""

    __test__ = False  # not a pytest class

    name: str
    outcome: Outcome
    message: str = ""


class TestReport(BaseModel):
    """Result of ``run_tests``."""

    __test__ = False

    total: int = 0
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    tests: list[TestCase] = Field(default_factory=list)
    output: str = ""
    duration_s: float = 0.0
    timed_out: bool = False
    message: str = ""

    @property
    def green(self) -> bool:
        """All tests passed and there was at least one."""
        return self.total > 0 and self.passed == self.total - self.skipped


class Diagnostic(BaseModel):
    """One compile or lint finding."""

    file: str
    line: int | None = None
    column: int | None = None
    message: str
    severity: Literal["error", "warning"] = "error"
    code: str | None = None


class CheckReport(BaseModel):
    """Result of ``check``."""

    ok: bool
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    message: str = ""
    """Notes about the check itself (e.g. a linter that is not installed)."""


class RunReport(BaseModel):
    """Result of ``run``."""

    exit_code: int
    stdout: str
    stderr: str
    timed_out: bool = False
    truncated: bool = False
    duration_s: float = 0.0
