"""``codeproof eval``: measure single-shot vs pipeline on a benchmark (see docs/evaluation.md)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from contextlib import closing
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from codeproof.commands.interrupt import ctrl_c_stops
from codeproof.core.config import Settings, load_settings
from codeproof.evaluation.datasets import load_dataset, sample_tasks
from codeproof.evaluation.remote import fetch_data_file
from codeproof.evaluation.report import REPORT_HTML, REPORT_MD, SUMMARY_FILE
from codeproof.evaluation.results import RESULTS_FILE, Mode, TaskResult
from codeproof.evaluation.runner import EvalOptions, Evaluator
from codeproof.evaluation.scoring import Scorer
from codeproof.evaluation.stats import Summary
from codeproof.llm.registry import get_chat_model

console = Console()


class ModeChoice(StrEnum):
    single = "single"
    pipeline = "pipeline"
    both = "both"


_MODES: dict[ModeChoice, tuple[Mode, ...]] = {
    ModeChoice.single: ("single",),
    ModeChoice.pipeline: ("pipeline",),
    ModeChoice.both: ("single", "pipeline"),
}


def _default_out(dataset: str, settings: Settings) -> Path:
    path = Path(dataset)
    stem = path.name.split(".")[0] if path.is_file() else dataset
    name = re.sub(r"[^\w-]+", "-", stem)
    return Path("eval-results") / f"{name}-{settings.llm.model}"


def _duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{max(minutes, 1)} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


class Progress:
    """Prints one line per finished task, with the time left at this run's pace.

    The pace counts only the tasks finished since this process started (a resumed run's
    earlier tasks took no time here); tasks run concurrently, so it is wall time per task.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._started = clock()
        self._done = 0

    def line(self, result: TaskResult, finished: int, total: int) -> str:
        self._done += 1
        verdict = "[green]pass[/]" if result.passed else f"[red]{result.status}[/]"
        text = (
            f"[{finished}/{total}] {result.mode:8} {result.task_id:24} {verdict} "
            f"attempts={result.attempts} {result.wall_s:.1f}s "
            f"{result.prompt_tokens + result.completion_tokens} tok"
        )
        left = total - finished
        if left > 0:
            pace = (self._clock() - self._started) / self._done
            text += f" · about {_duration(pace * left)} left"
        return text

    def __call__(self, result: TaskResult, finished: int, total: int) -> None:
        console.print(self.line(result, finished, total), highlight=False, soft_wrap=True)


def _print_summary(summary: Summary, out: Path) -> None:
    table = Table("metric", *summary.modes)
    rows = [
        ("pass@1", "pass_at_1", ".3f"),
        ("success rate (own tests)", "success_rate", ".3f"),
        ("green precision", "green_precision", ".3f"),
        ("green recall", "green_recall", ".3f"),
        ("latency mean s", "latency_mean_s", ".1f"),
        ("latency median s", "latency_median_s", ".1f"),
        ("tokens/task", "tokens_per_task", ".0f"),
        ("cost USD", "cost_usd", ".4f"),
        ("cache hit rate", "cache_hit_rate", ".3f"),
    ]
    for label, key, fmt in rows:
        values = [getattr(m, key) for m in summary.modes.values()]
        table.add_row(label, *("–" if v is None else format(v, fmt) for v in values))
    console.print(table)
    c = summary.comparison
    if c is not None:
        console.print(
            f"pipeline − single: {c.difference_points:+.1f} points "
            f"(95% CI {c.ci95_low_points:+.1f} … {c.ci95_high_points:+.1f}; "
            f"McNemar p = {c.mcnemar_p_value:.3g}; {c.paired_tasks} paired tasks)",
            highlight=False,
        )
    files = ", ".join(str(out / f) for f in (RESULTS_FILE, SUMMARY_FILE, REPORT_MD, REPORT_HTML))
    console.print(f"[dim]{files}[/]", highlight=False, soft_wrap=True)


def eval_command(
    dataset: Annotated[
        str,
        typer.Option(help="humaneval, humaneval-x-js, humaneval-x-java or a JSONL file."),
    ],
    mode: Annotated[ModeChoice, typer.Option(help="What to measure.")] = ModeChoice.both,
    limit: Annotated[int | None, typer.Option(help="Evaluate a sample of N tasks.")] = None,
    sample_seed: Annotated[int, typer.Option(help="Seed of the --limit sample.")] = 0,
    max_attempts: Annotated[
        int | None, typer.Option(min=1, help="Pipeline test runs per task (workflow default).")
    ] = None,
    candidates: Annotated[
        int | None,
        typer.Option(min=1, help="Most pipeline drafts per task (workflow.candidates)."),
    ] = None,
    probe_inputs: Annotated[
        int | None,
        typer.Option(min=0, max=40, help="Proposed probe inputs per task (workflow default)."),
    ] = None,
    provider: Annotated[str | None, typer.Option(help="Override llm.provider.")] = None,
    model: Annotated[str | None, typer.Option(help="Override llm.model.")] = None,
    out: Annotated[Path | None, typer.Option(help="Output directory.")] = None,
    resume: Annotated[bool, typer.Option(help="Skip tasks already in results.jsonl.")] = False,
    jobs: Annotated[
        int | None, typer.Option(min=1, help="Tasks at once (default: llm.slots).")
    ] = None,
    interleave: Annotated[
        bool,
        typer.Option(help="Each task in every mode before the next (paired timings)."),
    ] = False,
    data_dir: Annotated[
        Path | None, typer.Option(help="The shared benchmarks directory (evaluation.data_dir).")
    ] = None,
    data_url: Annotated[
        str | None,
        typer.Option(
            help="Read the dataset's file from this URL instead, pinned: URL#sha256=<hex> "
            "(downloaded once, verified).",
        ),
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Bypass the LLM response and sandbox result caches.")
    ] = False,
) -> None:
    """Score single-shot and/or pipeline code on a benchmark's hidden tests."""
    from codeproof.sandbox.registry import limits_from_settings, open_session  # docker SDK
    from codeproof.toolchains.client import started_toolchains  # MCP SDK

    settings = load_settings(
        llm={"provider": provider, "model": model, "cache": False if no_cache else None},
        sandbox={"cache": False if no_cache else None},
        evaluation={"data_dir": data_dir},
        workflow={"candidates": candidates, "probe_inputs": probe_inputs},
    )
    tasks = sample_tasks(
        load_dataset(
            dataset,
            data_dir=settings.evaluation.data_dir,
            data_file=fetch_data_file(data_url, settings) if data_url else None,
        ),
        limit,
        sample_seed,
    )
    options = EvalOptions(
        dataset=dataset,
        modes=_MODES[mode],
        limit=limit,
        sample_seed=sample_seed,
        max_attempts=max_attempts or settings.workflow.max_attempts,
        candidates=settings.workflow.candidates,
        probe_inputs=settings.workflow.probe_inputs,
        max_tokens=settings.llm.max_tokens,
        test_timeout_s=settings.sandbox.timeout_s,
        resume=resume,
        jobs=jobs,
        interleave=interleave,
        proof=settings.proof,
    )
    out_dir = out or _default_out(dataset, settings)
    scorer = Scorer(
        lambda language, limits: open_session(settings, language, limits),
        timeout_s=settings.evaluation.task_timeout_s,
        limits=limits_from_settings(settings),
    )
    chat = get_chat_model(settings)
    console.print(
        f"{len(tasks)} task(s) of {dataset} · modes {', '.join(options.modes)} · "
        f"{chat.name}:{chat.model} · {out_dir}",
        highlight=False,
    )
    toolchains = started_toolchains(settings)
    with chat, scorer, ctrl_c_stops(chat):
        evaluator = Evaluator(
            chat,
            scorer,
            lambda language: closing(toolchains(language)),
            options,
            out_dir,
            progress=Progress(),
        )
        summary = evaluator.run(tasks)
    _print_summary(summary, out_dir)


def register(app: typer.Typer) -> None:
    app.command("eval")(eval_command)
