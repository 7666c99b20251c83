"""``codeproof runs list | show ID | logs ID`` and ``codeproof resume ID``."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Column, Table

from codeproof.core.config import load_settings

if TYPE_CHECKING:  # the workflow (langgraph, MCP) is imported only by the commands that run
    from codeproof.workflow.deps import RunOptions
    from codeproof.workflow.store import Event, RunInfo, RunStore

runs_app = typer.Typer(help="Past runs: index, summaries and audit trails.", no_args_is_help=True)


def _store() -> RunStore:
    from codeproof.workflow.store import RunStore

    return RunStore(load_settings().runs_dir)


@runs_app.command("list")
def list_runs(
    limit: Annotated[int, typer.Option(help="How many runs, newest first.")] = 20,
) -> None:
    """The runs, newest first."""
    with _store() as store:
        runs = store.list_runs(limit)
    table = Table(Column("id", no_wrap=True), "status", "created (UTC)", "request", "output")
    for run in runs:
        request = run.request if len(run.request) <= 50 else run.request[:47] + "..."
        status = _status(run)
        table.add_row(*(escape(v) for v in (run.id, status, run.created_iso, request, run.out_dir)))
    Console().print(table)


@runs_app.command("show")
def show(
    run_id: Annotated[str, typer.Argument(help="Run id (a unique prefix is enough).")],
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Status, modules, attempts, tests and tokens of a run."""
    from codeproof.workflow.summary import summarize

    with _store() as store:
        run = store.get_run(run_id)
        summary = summarize(run, store.events(run.id))
    if json_out:
        typer.echo(summary.model_dump_json(indent=2))
        return
    console = Console()
    console.print(f"[bold]run {escape(run.id)}[/] · {escape(_status(run))}")
    console.print(f"request: {escape(run.request)}")
    console.print(f"output:  {escape(summary.project_dir or run.out_dir)}")
    table = Table("module", "status", "tests", "attempts", "findings")
    for m in summary.modules:
        cells = (m.name, m.status, f"{m.passed}/{m.total}", str(m.attempts), str(m.findings))
        table.add_row(*(escape(c) for c in cells))
    console.print(table)
    u = summary.usage
    console.print(
        f"{u.calls} LLM calls ({summary.replayed_calls} replayed) · {u.prompt_tokens} prompt + "
        f"{u.completion_tokens} completion tokens · {u.cache_hits} cache hits · "
        f"{u.latency_s:.1f} s · ${u.cost_usd:.4f} · {summary.decisions} decision(s) · "
        f"{summary.sandbox_runs} sandbox runs ({summary.sandbox_cached} from the result cache)"
    )


def _status(run: RunInfo) -> str:
    if run.orphaned:
        return f"{run.status}, but its process is gone: `codeproof resume {run.id}`"
    return f"{run.status}: {run.reason}" if run.reason else run.status


def describe(event: Event) -> str:
    """One line describing an audit event."""
    p = event.payload
    where = f" [{p['module']}]" if p.get("module") else ""
    if event.kind in ("node_start", "node_end"):
        return f"{p.get('node')}{where}"
    if event.kind == "llm_call":
        flags = "replayed" if p.get("replayed") else ("cached" if p.get("cached") else "paid")
        return (
            f"{p.get('scope')} {p.get('kind')} · {p.get('prompt_tokens')}+"
            f"{p.get('completion_tokens')} tokens · {p.get('latency_s')} s · {flags}"
        )
    if event.kind == "tool_call":
        cached = " · cached" if p.get("cached") else ""
        return f"{p.get('language')} {p.get('tool', p.get('name', ''))}{cached}".strip()
    if event.kind == "decision":
        return f"{p.get('kind')}: {json.dumps(p.get('value'))[:120]}"
    return f"{p.get('error')}: {p.get('message')}"


@runs_app.command("logs")
def logs(
    run_id: Annotated[str, typer.Argument(help="Run id (a unique prefix is enough).")],
    json_out: Annotated[
        bool, typer.Option("--json", help="Full events, one JSON per line.")
    ] = False,
    kind: Annotated[str | None, typer.Option(help="Only this kind of event.")] = None,
) -> None:
    """The audit trail: every node, LLM call, tool call, decision and error."""
    with _store() as store:
        run = store.get_run(run_id)
        events = [e for e in store.events(run.id) if kind is None or e.kind == kind]
    if json_out:
        for event in events:
            typer.echo(event.model_dump_json())
        return
    table = Table("seq", "time", "kind", "what", box=None)
    for event in events:
        ts = _clock(event.ts)
        table.add_row(str(event.seq), ts, event.kind, escape(describe(event)))
    Console().print(table)


def _clock(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%H:%M:%S")


def resume(
    run_id: Annotated[str, typer.Argument(help="Run id (a unique prefix is enough).")],
    json_out: Annotated[bool, typer.Option("--json", help="One JSON event per line.")] = False,
    yes: Annotated[
        bool,
        typer.Option("--yes", "-y", help="Non-interactive from here on: assume, accept, continue."),
    ] = False,
) -> None:
    """Continue a paused, interrupted or crashed run from its last checkpoint."""
    from codeproof.commands.workflow_run import execute
    from codeproof.workflow.deps import RunOptions

    with _store() as store:
        run = store.get_run(run_id)
    options = RunOptions.model_validate(run.options)
    if yes:
        options = options.answering_by_default()
    settings = load_settings(llm=_llm_overrides(options))
    chosen = options if yes else None  # --yes: the run goes on with default answers
    execute(settings, options, json_out, run.id, lambda r: r.resume(run.id, options=chosen))


def _llm_overrides(options: RunOptions) -> dict[str, Any]:
    return {"provider": options.provider, "model": options.model}


def register(app: typer.Typer) -> None:
    app.add_typer(runs_app, name="runs")
    app.command("resume")(resume)
