"""``codeproof new REQUEST``: run the whole workflow, from the request to a tested project."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

OnFailure = Literal["ask", "continue", "stop"]


def new(
    request: Annotated[
        str | None,
        typer.Argument(
            help="What to build, in plain words (optional with --spec).", show_default=False
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="The language (default: the request's, else the first known)."),
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Output directory.")] = None,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Non-interactive: assume, accept, continue.")
    ] = False,
    modules: Annotated[
        str | None, typer.Option("--modules", help="Build only these modules (a,b).")
    ] = None,
    max_attempts: Annotated[
        int | None, typer.Option("--max-attempts", min=1, help="Attempts per module.")
    ] = None,
    on_failure: Annotated[
        OnFailure | None, typer.Option("--on-failure", help="ask, continue or stop.")
    ] = None,
    candidates: Annotated[
        int | None,
        typer.Option(
            "--candidates", min=1, help="Most drafts per module (the evidence ladder's cap)."
        ),
    ] = None,
    provider: Annotated[str | None, typer.Option(help="Override llm.provider.")] = None,
    model: Annotated[str | None, typer.Option(help="Override llm.model.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON event per line.")] = False,
    spec: Annotated[
        Path | None,
        typer.Option(
            "--spec",
            help='A JSON spec to build ({"spec": {...}, "modules": [...]}): no questions, '
            "no analysis.",
        ),
    ] = None,
    project: Annotated[
        Path | None,
        typer.Option(
            "--project",
            help="Work inside this existing project: index it, plan in its layout, keep its "
            "tests passing, write the changes in place at the end (git: a new branch).",
        ),
    ] = None,
    no_retrieval: Annotated[
        bool,
        typer.Option(
            "--no-retrieval",
            help="Do not ground the agents in the retrieval index (on when it has a source).",
        ),
    ] = False,
    no_cache: Annotated[
        bool,
        typer.Option(
            "--no-cache",
            help="Answer nothing from the LLM response cache or the sandbox result cache "
            "(fresh calls and runs; what a timing should measure).",
        ),
    ] = False,
) -> None:
    """Turn REQUEST into a tested project (interactive unless --yes)."""
    from codeproof.commands.workflow_run import start_new  # heavy: langgraph, MCP

    start_new(
        request,
        lang=lang,
        out=out,
        yes=yes,
        modules=modules,
        max_attempts=max_attempts,
        on_failure=on_failure,
        candidates=candidates,
        provider=provider,
        model=model,
        json_out=json_out,
        spec_file=spec,
        no_retrieval=no_retrieval,
        project_dir=project,
        no_cache=no_cache,
    )


def register(app: typer.Typer) -> None:
    app.command("new")(new)
