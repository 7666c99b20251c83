"""``codeproof doctor``: every subsystem's health checks, and a table of them.

Each subsystem contributes check functions to :data:`CHECKS`. A check returns a
:class:`~codeproof.core.checks.CheckResult`; a failed required check makes ``doctor``
exit non-zero, and every failed check carries a one-line fix.
"""

from __future__ import annotations

import sys

import typer
from rich.console import Console
from rich.table import Table

from codeproof.core.checks import CheckFn, CheckResult
from codeproof.core.config import Settings, load_settings
from codeproof.evaluation.checks import check_benchmarks
from codeproof.llm.checks import check_model, check_provider
from codeproof.sandbox.checks import check_bubblewrap, check_docker, check_sandbox_images
from codeproof.toolchains.doctor import check_toolchains


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


def doctor() -> None:
    """Check Python, the model, the provider, the sandbox and toolchains; print fixes."""
    results = run_checks(load_settings())
    table = Table("check", "status", "detail / fix", show_lines=False)
    for r in results:
        if r.ok:
            status = "[green]ok[/]"
        elif r.required:
            status = "[red]FAIL[/]"
        else:
            status = "[yellow]warn[/]"
        detail = r.detail if r.ok or not r.fix else f"{r.detail}\n[bold]fix:[/] {r.fix}"
        table.add_row(r.name, status, detail)
    Console().print(table)
    if any(not r.ok and r.required for r in results):
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)
