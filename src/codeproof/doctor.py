"""Health checks behind ``codeproof doctor``.

Each subsystem contributes check functions to :data:`CHECKS`. A check returns a
:class:`CheckResult`; a failed required check makes ``doctor`` exit non-zero, and
every failed check carries a one-line fix.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

from codeproof.config import Settings
from codeproof.evaluation.checks import check_benchmarks
from codeproof.llm.checks import check_model, check_provider
from codeproof.sandbox.checks import check_bubblewrap, check_docker, check_sandbox_images
from codeproof.toolchains.doctor import check_toolchains


@dataclass(frozen=True)
class CheckResult:
    """Outcome of one health check."""

    name: str
    ok: bool
    detail: str
    fix: str | None = None
    required: bool = True


CheckFn = Callable[[Settings], CheckResult]


def check_python(settings: Settings) -> CheckResult:
    """Python must be 3.11 or newer."""
    version = ".".join(str(v) for v in sys.version_info[:3])
    ok = sys.version_info >= (3, 11)
    return CheckResult(
        "python", ok, f"Python {version}", None if ok else "install Python 3.11 or newer"
    )


CHECKS: list[CheckFn] = [
    check_python,
    check_model,
    check_provider,
    check_docker,
    check_bubblewrap,
    check_sandbox_images,
    check_toolchains,
    check_benchmarks,
]


def run_checks(settings: Settings, checks: list[CheckFn] | None = None) -> list[CheckResult]:
    """Run every check; a check that raises is reported as failed, never propagated."""
    results = []
    for check in checks if checks is not None else CHECKS:
        try:
            results.append(check(settings))
        except Exception as exc:  # a broken check must not hide the others
            results.append(
                CheckResult(check.__name__.removeprefix("check_"), False, f"check crashed: {exc}")
            )
    return results
