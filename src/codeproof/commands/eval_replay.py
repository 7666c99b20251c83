"""``codeproof eval-replay``: make a pipeline run's choices again with the current selection."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from codeproof.core.config import load_settings
from codeproof.core.errors import InputError
from codeproof.evaluation.datasets import load_dataset
from codeproof.evaluation.pipeline import TestRunner
from codeproof.evaluation.replay import (
    ReplaySummary,
    pending,
    replay_file,
    replay_task,
    summarize,
)
from codeproof.evaluation.results import RESULTS_FILE, ResultStore, load_run_info

console = Console()


def _print(summary: ReplaySummary, path: Path) -> None:
    inputs = "with" if summary.with_inputs else "without"
    mutants = "with" if summary.with_mutants else "without"
    repeats = ", with repeated tests" if summary.with_repeats else ""
    console.print(
        f"{summary.tasks} task(s) replayed ({inputs} proposed inputs, {mutants} mutated "
        f"inputs{repeats}): some draft passes on {summary.any_draft_passed}; the chosen draft "
        f"passes on {summary.stored_passed} as stored, {summary.replayed_passed} replayed "
        f"({summary.changed} choice(s) changed)",
        highlight=False,
    )
    if summary.gained:
        console.print(f"[green]gained[/]: {', '.join(summary.gained)}", highlight=False)
    if summary.lost:
        console.print(f"[red]lost[/]: {', '.join(summary.lost)}", highlight=False)
    console.print(f"[dim]{path}[/]", highlight=False, soft_wrap=True)


def eval_replay_command(
    results_dir: Annotated[
        Path, typer.Argument(help="The --out directory of a `codeproof eval` pipeline run.")
    ],
    inputs: Annotated[
        bool, typer.Option("--inputs/--no-inputs", help="Use the stored proposed probe inputs.")
    ] = True,
    mutants: Annotated[
        bool,
        typer.Option("--mutants/--no-mutants", help="Break ties by mutated probe inputs."),
    ] = True,
    repeats: Annotated[
        bool,
        typer.Option(
            "--repeats/--no-repeats",
            help="Keep designed tests that repeat an earlier one (the engine drops them).",
        ),
    ] = False,
    data_dir: Annotated[
        Path | None, typer.Option(help="The shared benchmarks directory (evaluation.data_dir).")
    ] = None,
) -> None:
    """Choose among each task's stored drafts again (no model), and compare with the run."""
    from codeproof.toolchains.client import open_toolchain  # MCP SDK

    settings = load_settings(evaluation={"data_dir": data_dir})
    info = load_run_info(results_dir)
    results = ResultStore(results_dir).load()
    dataset = load_dataset(info.dataset, data_dir=settings.evaluation.data_dir)
    todo = pending(results, {t.task_id: t for t in dataset})
    if not todo:
        raise InputError(
            f"no pipeline result in {results_dir / RESULTS_FILE} keeps the drafts it chose from",
            hint="run `codeproof eval --mode pipeline` with this version (older runs lack them)",
        )
    rows = []
    with ExitStack() as stack:
        clients: dict[str, TestRunner] = {}
        for n, (result, task) in enumerate(todo, 1):
            client = clients.get(task.language)
            if client is None:
                client = stack.enter_context(open_toolchain(settings, task.language))
                clients[task.language] = client
            row = replay_task(
                client,
                result,
                task,
                with_inputs=inputs,
                with_mutants=mutants,
                with_repeats=repeats,
                timeout_s=settings.sandbox.timeout_s,
            )
            rows.append(row)
            mark = "same" if row.replayed == row.stored else f"{row.stored} → {row.replayed}"
            verdict = "[green]pass[/]" if row.replayed_passed else "[red]fail[/]"
            console.print(f"[{n}/{len(todo)}] {row.task_id:24} {mark:8} {verdict}", highlight=False)
    summary = summarize(rows, with_inputs=inputs, with_mutants=mutants, with_repeats=repeats)
    path = results_dir / replay_file(with_inputs=inputs, with_mutants=mutants, with_repeats=repeats)
    path.write_text(summary.model_dump_json(indent=2) + "\n", encoding="utf-8")
    _print(summary, path)


def register(app: typer.Typer) -> None:
    app.command("eval-replay")(eval_replay_command)
