"""``codeproof index add PATH | update [NAME...] | list | remove NAME``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from codeproof.core.config import load_settings

if TYPE_CHECKING:  # lancedb, onnxruntime: imported only when an index command runs
    from codeproof.retrieval.index import Index
    from codeproof.retrieval.indexer import IndexStats

KindOption = Literal["code", "docs", "qa", "issues", "verified"]

index_app = typer.Typer(
    help="The retrieval index: sources the agents are grounded in.", no_args_is_help=True
)


def open_index() -> Index:
    from codeproof.retrieval.index import Index

    return Index.from_settings(load_settings())


def _print_stats(console: Console, stats: IndexStats) -> None:
    console.print(
        f"{escape(stats.source)}: {stats.documents} documents ({stats.changed} changed, "
        f"{stats.removed} removed) · {stats.chunks} chunks written, {stats.embedded} embedded, "
        f"{stats.reused} reused · {stats.seconds:.1f} s"
    )


@index_app.command("add")
def add(
    path: Annotated[Path, typer.Argument(help="A folder, git repository, file or dump.")],
    kind: Annotated[
        KindOption | None,
        typer.Option(
            "--kind",
            help="code (project, site-packages, node_modules), docs (Markdown/HTML), "
            "qa (Stack Exchange Posts.xml), issues (GitHub REST JSON), verified (a "
            "codeproof runs directory); guessed when not given.",
        ),
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="Source name.")] = None,
) -> None:
    """Add a source to the index and index it."""
    console = Console(stderr=True)
    index = open_index()
    try:
        with console.status(f"indexing {escape(str(path))}"):
            stats = index.add(path, kind=kind, name=name)
    finally:
        index.close()
    _print_stats(console, stats)


@index_app.command("update")
def update(
    names: Annotated[
        list[str] | None, typer.Argument(help="Sources to update (default: all).")
    ] = None,
) -> None:
    """Index sources again: only changed documents are chunked and embedded."""
    console = Console(stderr=True)
    index = open_index()
    try:
        with console.status("updating the index"):
            all_stats = index.update(names or [])
    finally:
        index.close()
    if not all_stats:
        console.print("the index has no sources; add one with `codeproof index add PATH`")
    for stats in all_stats:
        _print_stats(console, stats)


@index_app.command("list")
def list_sources(
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The sources of the index."""
    index = open_index()
    entries = index.sources()
    if json_out:
        typer.echo("[" + ",".join(e.model_dump_json() for e in entries) + "]")
        return
    console = Console()
    if not entries:
        console.print("the index has no sources; add one with `codeproof index add PATH`")
        return
    table = Table("name", "kind", "documents", "chunks", "updated (UTC)", "path")
    for e in entries:
        table.add_row(
            escape(e.name), e.kind, str(e.documents), str(e.chunks), e.updated_at, escape(e.path)
        )
    console.print(table)
    console.print(f"index: {escape(str(index.directory))}")


@index_app.command("remove")
def remove(name: Annotated[str, typer.Argument(help="The source to remove.")]) -> None:
    """Remove a source and its chunks from the index."""
    index = open_index()
    try:
        gone = index.remove(name)
    finally:
        index.close()
    Console(stderr=True).print(f"removed {escape(name)} ({gone} chunks)")


def register(app: typer.Typer) -> None:
    app.add_typer(index_app, name="index")
