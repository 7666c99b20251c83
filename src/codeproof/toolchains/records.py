"""What the audit trail keeps of a toolchain call: the tool, its arguments (long strings
cut), a one-line summary of the result, and how long it took."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field

from codeproof.core.types import CheckReport, ProgramRun, TestReport

ARGUMENT_LIMIT = 200
"""Characters kept of each string in the audit trail's arguments."""


class ToolCallRecord(BaseModel):
    """One tool call, for the audit trail.

    Attributes:
        tool: Tool name (``run_tests``, ``check``, ``run``).
        arguments: The arguments, each string cut to :data:`ARGUMENT_LIMIT` characters.
        result: One-line summary of the result or of the error.
        ok: Whether the call returned a result (not whether tests passed).
        duration_s: Wall time of the call as seen by the client.
        cached: Answered from the result cache (an identical earlier run), not run.
    """

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: str
    ok: bool
    duration_s: float
    cached: bool = False


def truncate_values(value: Any) -> Any:
    """``value`` with every string longer than :data:`ARGUMENT_LIMIT` cut."""
    if isinstance(value, str):
        if len(value) <= ARGUMENT_LIMIT:
            return value
        return f"{value[:ARGUMENT_LIMIT]}... [{len(value)} characters]"
    if isinstance(value, Mapping):
        return {key: truncate_values(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [truncate_values(item) for item in value]
    return value


def summarize(report: BaseModel) -> str:
    """One line describing a tool result."""
    if isinstance(report, TestReport):
        text = (
            f"{report.total} tests: {report.passed} passed, {report.failed} failed, "
            f"{report.errors} errors, {report.skipped} skipped"
        )
        return f"{text}; timed out" if report.timed_out else text
    if isinstance(report, CheckReport):
        errors = sum(d.severity == "error" for d in report.diagnostics)
        state = "ok" if report.ok else "failed"
        return f"{state}: {errors} errors, {len(report.diagnostics) - errors} warnings"
    if isinstance(report, ProgramRun):
        return f"exit code {report.exit_code}" + ("; timed out" if report.timed_out else "")
    return type(report).__name__
