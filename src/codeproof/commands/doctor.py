"""``codeproof doctor``."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

from codeproof.config import load_settings
from codeproof.doctor import run_checks


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
