"""``codeproof models list|pull|path``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TransferSpeedColumn
from rich.table import Table

from codeproof.core.config import load_settings
from codeproof.llm.integrity import Progress as ProgressFn
from codeproof.llm.models import ModelManager

models_app = typer.Typer(help="List, pull and locate models.", no_args_is_help=True)
console = Console()
err_console = Console(stderr=True)


def _manager() -> ModelManager:
    return ModelManager(load_settings().models_dir)


def _size(n: int) -> str:
    return f"{n / 1e9:.2f} GB" if n >= 1e9 else f"{n / 1e6:.0f} MB"


@models_app.command("list")
def list_models() -> None:
    """Show the catalogue and what is present."""
    table = Table("name", "description", "size", "status")
    colour = {"ready": "green", "installed-packages": "yellow", "missing": "red"}
    for info in _manager().list():
        table.add_row(
            info.name,
            info.description,
            _size(info.size),
            f"[{colour[info.status]}]{info.status}[/]",
        )
    console.print(table)


@contextmanager
def _progress(label: str) -> Iterator[ProgressFn]:
    columns = ("{task.description}", BarColumn(), DownloadColumn(), TransferSpeedColumn())
    with Progress(*columns, console=err_console, transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


@models_app.command("pull")
def pull(
    name: Annotated[str, typer.Argument(help="Catalogue name or https://...gguf[#sha256=HEX].")],
    verify: Annotated[bool, typer.Option("--verify", help="Rehash even if verified.")] = False,
) -> None:
    """Install, assemble or download a model and verify its sha256 (no-op when ready)."""
    with _progress(f"pull {name}") as update:
        path = _manager().pull(name, verify=verify, progress=update)
    err_console.print(f"[green]ready[/] {name}")
    typer.echo(str(path))


@models_app.command("path")
def path(name: Annotated[str, typer.Argument(help="Catalogue name, .gguf path or URL.")]) -> None:
    """Print the GGUF path of a pulled model."""
    typer.echo(str(_manager().resolve(name)))


def register(app: typer.Typer) -> None:
    app.add_typer(models_app, name="models")
