"""The result type of a health check (``codeproof doctor``).

A leaf module: every subsystem's checks import :class:`CheckResult` from here, and the
doctor command gathers them, so no package imports the command that imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from codeproof.core.config import Settings


@dataclass(frozen=True)
class CheckResult:
    """Outcome of one health check."""

    name: str
    ok: bool
    detail: str
    fix: str | None = None
    required: bool = True


CheckFn = Callable[[Settings], CheckResult]
