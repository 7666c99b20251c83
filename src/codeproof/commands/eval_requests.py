"""``codeproof eval-requests``: one model call vs ``codeproof new --yes`` on user requests,
scored on hidden acceptance tests in the sandbox (see docs/evaluation.md)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from codeproof.agents.programmer import WHOLE_MAX_TOKENS
from codeproof.core.errors import InputError
from codeproof.evaluation.request_cases import find_requests_dir, load_requests
from codeproof.evaluation.request_modes import PipelineLauncher
from codeproof.evaluation.request_report import REPORT_MD, SUMMARY_FILE, write_reports
from codeproof.evaluation.requests import (
    REQUEST_MODES,
    RESULTS_FILE,
    RequestEvalOptions,
    RequestEvaluator,
    RequestMode,
    RequestResult,
    RequestRunInfo,
)

console = Console()


def parse_modes(text: str) -> tuple[RequestMode, ...]:
    """``one-call,pipeline`` -> the modes, in the order of :data:`REQUEST_MODES`.

    Raises:
        InputError: An unknown mode, or none.
    """
    names = [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in names if m not in REQUEST_MODES]
    if unknown or not names:
        raise InputError(
            f"unknown mode(s): {', '.join(unknown) or '(none)'}",
            hint=f"--modes takes a comma-separated list of: {', '.join(REQUEST_MODES)}",
        )
    return tuple(m for m in REQUEST_MODES if m in names)


def _split_ids(text: str | None) -> list[str] | None:
    return [i.strip() for i in text.split(",") if i.strip()] if text else None


def _shown(path: Path) -> str:
    """``path`` relative to the working directory when it is inside it (for run.json)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


class Progress:
    """One line per finished request and mode."""

    def __init__(self) -> None:
        self._started = time.monotonic()

    def __call__(self, result: RequestResult, finished: int, total: int) -> None:
        verdict = "[green]met[/]" if result.met else f"[red]{result.status}[/]"
        own = f" own={result.own_status}" if result.own_status else ""
        console.print(
            f"[{finished}/{total}] {result.mode:8} {result.id:24} {verdict} "
            f"{result.passed}/{result.checks}{own} {result.wall_s:.0f}s {result.tokens} tok "
            f"({time.monotonic() - self._started:.0f}s so far)",
            highlight=False,
            soft_wrap=True,
        )


def eval_requests_command(
    out: Annotated[Path, typer.Option(help="Output directory (projects, results, report).")],
    ids: Annotated[
        str | None, typer.Option("--ids", help="Comma-separated request ids (default: all).")
    ] = None,
    modes: Annotated[
        str, typer.Option(help="Comma-separated: one-call, pipeline.")
    ] = "one-call,pipeline",
    resume: Annotated[bool, typer.Option(help="Skip what results.jsonl already holds.")] = False,
    provider: Annotated[str | None, typer.Option(help="Override llm.provider.")] = None,
    model: Annotated[str | None, typer.Option(help="Override llm.model.")] = None,
    timeout_min: Annotated[
        float, typer.Option(min=1, help="Wall-time limit of one `codeproof new` run.")
    ] = 30.0,
    max_tokens: Annotated[
        int, typer.Option(min=256, help="Completion tokens of the one call.")
    ] = WHOLE_MAX_TOKENS,
    requests_dir: Annotated[
        Path | None, typer.Option(help="The benchmark (default: benchmarks/requests).")
    ] = None,
    no_cache: Annotated[
        bool,
        typer.Option(
            "--no-cache", help="Bypass the LLM response and sandbox result caches in both modes."
        ),
    ] = False,
) -> None:
    """Score one model call and `codeproof new --yes` on the request benchmark."""
    from codeproof.commands.interrupt import ctrl_c_stops
    from codeproof.core.config import load_settings
    from codeproof.llm.registry import get_chat_model
    from codeproof.toolchains.client import open_toolchain  # MCP SDK

    chosen = parse_modes(modes)
    root = find_requests_dir(requests_dir)
    cases = load_requests(root, _split_ids(ids))
    settings = load_settings(
        llm={"provider": provider, "model": model, "cache": False if no_cache else None}
    )
    chat = get_chat_model(settings) if "one-call" in chosen else None
    launcher = PipelineLauncher(timeout_min * 60, provider=provider, model=model, no_cache=no_cache)
    options = RequestEvalOptions(
        modes=chosen,
        max_tokens=max_tokens,
        test_timeout_s=settings.sandbox.timeout_s,
        resume=resume,
    )
    info = RequestRunInfo(
        provider=settings.llm.provider, model=settings.llm.model, requests_dir=_shown(root)
    )
    console.print(
        f"{len(cases)} request(s) · modes {', '.join(chosen)} · "
        f"{info.provider}:{info.model} · {out}",
        highlight=False,
    )
    evaluator = RequestEvaluator(
        chat,
        lambda language: open_toolchain(settings, language),
        launcher,
        options,
        out,
        progress=Progress(),
    )
    try:
        with ctrl_c_stops(chat):
            results = evaluator.run(cases, info)
    finally:
        if chat is not None:
            chat.close()
    summary = write_reports(out, f"{info.provider}/{info.model}", results)
    for mode, s in summary.modes.items():
        console.print(
            f"{mode}: {s.met}/{s.requests} requests met, {s.checks_passed}/{s.checks} checks, "
            f"{s.wall_total_s:.0f}s, {s.tokens_per_request:.0f} tokens per request",
            highlight=False,
        )
    files = ", ".join(str(out / f) for f in (RESULTS_FILE, SUMMARY_FILE, REPORT_MD))
    console.print(f"[dim]{files}[/]", highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("eval-requests")(eval_requests_command)
