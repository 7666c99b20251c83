"""``codeproof search "QUERY" [--json] [-k 5]``: the best chunks of the index."""

from __future__ import annotations

import json
from typing import Annotated, Literal

import typer
from rich.console import Console
from rich.markup import escape

ModeOption = Literal["hybrid", "vector", "fts"]


def search(
    query: Annotated[str, typer.Argument(help="What to look for, in words or code.")],
    k: Annotated[int, typer.Option("-k", "--top", min=1, max=100, help="How many hits.")] = 5,
    mode: Annotated[
        ModeOption, typer.Option(help="hybrid (full-text + vector, fused), vector or fts.")
    ] = "hybrid",
    source: Annotated[
        list[str] | None, typer.Option("--source", help="Only this source (repeatable).")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON array of hits.")] = False,
) -> None:
    """Search the index: each hit's source, path, line span, score and a snippet."""
    from codeproof.commands.index import open_index

    index = open_index()
    try:
        hits = index.search(query, k=k, mode=mode, sources=source or [])
    finally:
        index.close()
    if json_out:
        rows = [
            {
                "source": h.chunk.source,
                "kind": h.chunk.source_kind,
                "path": h.chunk.path,
                "start_line": h.chunk.start_line,
                "end_line": h.chunk.end_line,
                "symbol": h.chunk.symbol,
                "score": round(h.score, 6),
                "snippet": h.snippet(),
                "url": h.chunk.url,
            }
            for h in hits
        ]
        typer.echo(json.dumps(rows, indent=2))
        return
    console = Console()
    if not hits:
        console.print("no hits (is the index empty? see `codeproof index list`)")
    for n, hit in enumerate(hits, start=1):
        c = hit.chunk
        console.print(
            f"[bold]{n}. {escape(c.source)}:{escape(c.path)}:{c.lines}[/] "
            f"{escape(c.symbol)} [dim]score {hit.score:.4f}[/]",
            highlight=False,
        )
        console.print(escape(hit.snippet()), highlight=False)
        console.print()


def register(app: typer.Typer) -> None:
    app.command("search")(search)
