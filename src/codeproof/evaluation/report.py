"""``summary.json``, ``report.md`` and a self-contained ``report.html`` (inline SVG)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from pathlib import Path

from codeproof.evaluation.results import MODES, RunInfo, TaskResult
from codeproof.evaluation.stats import Comparison, ModeSummary, Summary, summarize
from codeproof.evaluation.svg import bar_chart, cdf_chart

SUMMARY_FILE = "summary.json"
REPORT_MD = "report.md"
REPORT_HTML = "report.html"
FIGURES = {
    "pass-at-1": "pass@1 by mode",
    "attempts": "Attempts distribution",
    "latency-cdf": "Latency CDF",
    "tokens": "Tokens per task",
}


def _num(value: float | None, fmt: str = ".3f") -> str:
    return "–" if value is None else format(value, fmt)


def _rows(summary: Summary) -> list[tuple[str, list[str]]]:
    ms: dict[str, ModeSummary] = summary.modes
    order = [m for m in MODES if m in ms]

    def row(label: str, get: str, fmt: str = ".3f") -> tuple[str, list[str]]:
        return label, [_num(getattr(ms[m], get), fmt) for m in order]

    return [
        ("tasks", [str(ms[m].tasks) for m in order]),
        row("pass@1 (hidden tests)", "pass_at_1"),
        row("success rate (own tests green)", "success_rate"),
        ("reported green (tasks)", [_num(ms[m].green, "d") for m in order]),
        row("green precision (correct among green)", "green_precision"),
        row("green recall (green among correct)", "green_recall"),
        row("tests-green precision (before the proof)", "tests_green_precision"),
        row("tests-green recall (before the proof)", "tests_green_recall"),
        row("median mutation score", "mutation_score_median"),
        ("generation errors", [str(ms[m].errors) for m in order]),
        row("latency mean (s)", "latency_mean_s", ".1f"),
        row("latency median (s)", "latency_median_s", ".1f"),
        row("tokens per task", "tokens_per_task", ".0f"),
        row("tokens per solved task", "tokens_per_solved_task", ".0f"),
        row("cost (USD)", "cost_usd", ".4f"),
        row("cache hit rate", "cache_hit_rate"),
        ("drafts scored (tasks)", [_num(ms[m].drafts_scored, "d") for m in order]),
        ("some draft passes (tasks)", [_num(ms[m].any_draft_passed, "d") for m in order]),
        ("chosen draft passes (tasks)", [_num(ms[m].chosen_draft_passed, "d") for m in order]),
        (
            "attempts histogram",
            [", ".join(f"{k}: {v}" for k, v in ms[m].attempts_histogram.items()) for m in order],
        ),
    ]


def _comparison_text(c: Comparison) -> str:
    return (
        f"pipeline − single on {c.paired_tasks} paired tasks: "
        f"{c.difference_points:+.1f} points (95% CI {c.ci95_low_points:+.1f} to "
        f"{c.ci95_high_points:+.1f}, paired bootstrap, {c.bootstrap_resamples} resamples, "
        f"seed {c.bootstrap_seed}); only pipeline passed {c.only_pipeline_passed}, "
        f"only single passed {c.only_single_passed}; McNemar exact p = {c.mcnemar_p_value:.4g}"
    )


def figures(summary: Summary, results: Sequence[TaskResult]) -> dict[str, str]:
    """The four SVG figures, keyed as in :data:`FIGURES`."""
    modes = [m for m in MODES if m in summary.modes]
    ms = summary.modes
    attempts = sorted({int(k) for m in modes for k in ms[m].attempts_histogram})
    per_mode = {m: [r for r in results if r.mode == m] for m in modes}
    return {
        "pass-at-1": bar_chart(
            FIGURES["pass-at-1"],
            ["pass@1", "own tests green"],
            {m: [ms[m].pass_at_1, ms[m].success_rate] for m in modes},
            y_label="fraction of tasks",
            y_max=1.0,
        ),
        "attempts": bar_chart(
            FIGURES["attempts"],
            [str(a) for a in attempts],
            {m: [ms[m].attempts_histogram.get(str(a), 0) for a in attempts] for m in modes},
            y_label="tasks",
        ),
        "latency-cdf": cdf_chart(
            FIGURES["latency-cdf"],
            {m: [r.wall_s for r in per_mode[m]] for m in modes},
            x_label="wall time per task (s)",
        ),
        "tokens": bar_chart(
            FIGURES["tokens"],
            ["per task", "per solved task"],
            {m: [ms[m].tokens_per_task, ms[m].tokens_per_solved_task] for m in modes},
            y_label="tokens",
        ),
    }


def _title(info: RunInfo) -> str:
    paired = info.paired_from or {}
    if len(set(paired.values())) > 1:
        models = ", ".join(f"{mode} with {model}" for mode, model in paired.items())
        return f"Evaluation: {info.dataset}, {models}"
    return f"Evaluation: {info.dataset} with {info.provider}/{info.model}"


def _scope(info: RunInfo) -> str:
    text = (
        f"{len(info.task_ids)} tasks (limit {info.limit}, sample seed {info.sample_seed}), "
        f"max attempts {info.max_attempts}."
    )
    if info.paired_from:
        text += " Paired from two runs: the tasks both finished."
    return text


def _markdown(info: RunInfo, summary: Summary, results: Sequence[TaskResult]) -> str:
    modes = [m for m in MODES if m in summary.modes]
    lines = [
        f"# {_title(info)}",
        "",
        _scope(info),
        "",
        "| metric | " + " | ".join(modes) + " |",
        "| --- | " + " | ".join("---:" for _ in modes) + " |",
    ]
    lines += [f"| {label} | " + " | ".join(vals) + " |" for label, vals in _rows(summary)]
    if summary.comparison is not None:
        lines += ["", _comparison_text(summary.comparison)]
    lines += [""] + [f"![{title}](fig-{key}.svg)" for key, title in FIGURES.items()]
    lines += ["", "## Per task", "", "| task | " + " | ".join(modes) + " |"]
    lines.append("| --- | " + " | ".join("---" for _ in modes) + " |")
    lines += [f"| {tid} | {' | '.join(cells)} |" for tid, cells in _per_task(modes, results)]
    return "\n".join(lines) + "\n"


def _per_task(modes: Sequence[str], results: Sequence[TaskResult]) -> list[tuple[str, list[str]]]:
    index: dict[tuple[str, str], TaskResult] = {(r.task_id, r.mode): r for r in results}
    ids = list(dict.fromkeys(r.task_id for r in results))
    out = []
    for tid in ids:
        cells = []
        for m in modes:
            r = index.get((tid, m))
            cells.append("–" if r is None else f"{'pass' if r.passed else r.status} ({r.attempts})")
        out.append((tid, cells))
    return out


def _html(info: RunInfo, summary: Summary, results: Sequence[TaskResult]) -> str:
    modes = [m for m in MODES if m in summary.modes]
    head = "".join(f"<th>{escape(m)}</th>" for m in modes)
    body = "".join(
        f"<tr><td>{escape(label)}</td>" + "".join(f"<td>{escape(v)}</td>" for v in vals) + "</tr>"
        for label, vals in _rows(summary)
    )
    tasks = "".join(
        f"<tr><td>{escape(tid)}</td>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>"
        for tid, cells in _per_task(modes, results)
    )
    comparison = (
        f"<p><strong>{escape(_comparison_text(summary.comparison))}</strong></p>"
        if summary.comparison
        else ""
    )
    svgs = "".join(f"<figure>{svg}</figure>" for svg in figures(summary, results).values())
    title = escape(_title(info))
    style = (
        "body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
        "padding:4px 8px;text-align:right}td:first-child{text-align:left}"
        "figure{display:inline-block;margin:8px}"
    )
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f"<style>{style}</style></head><body><h1>{title}</h1>"
        f"<p>{escape(_scope(info))}</p>"
        f"<table><tr><th>metric</th>{head}</tr>{body}</table>{comparison}{svgs}"
        f"<h2>Per task</h2><table><tr><th>task</th>{head}</tr>{tasks}</table></body></html>\n"
    )


def write_reports(out_dir: Path, info: RunInfo, results: Sequence[TaskResult]) -> Summary:
    """Write ``summary.json``, ``report.md`` (+ ``fig-*.svg``) and ``report.html``."""
    summary = summarize(results)
    (out_dir / SUMMARY_FILE).write_text(
        json.dumps(summary.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8"
    )
    if not summary.modes:
        return summary
    for key, svg in figures(summary, results).items():
        (out_dir / f"fig-{key}.svg").write_text(svg + "\n", encoding="utf-8")
    (out_dir / REPORT_MD).write_text(_markdown(info, summary, results), encoding="utf-8")
    (out_dir / REPORT_HTML).write_text(_html(info, summary, results), encoding="utf-8")
    return summary
