"""``summary.json`` and ``report.md`` of the request benchmark.

Per mode: requests met (every acceptance check passed), checks passed, wall time, tokens
and model calls; for the pipeline also how often its own verdict was wrong. When both
modes ran, a paired comparison on the requests both finished: McNemar's exact test on
"met" and paired bootstrap intervals (:mod:`codeproof.evaluation.stats`).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel

from codeproof.evaluation.requests import REQUEST_MODES, RequestResult, write_json
from codeproof.evaluation.stats import BOOTSTRAP_SEED, mcnemar_exact, paired_bootstrap_ci

SUMMARY_FILE = "summary.json"
REPORT_MD = "report.md"


class RequestModeSummary(BaseModel):
    """Aggregates of one mode."""

    requests: int
    met: int
    met_rate: float
    checks: int
    checks_passed: int
    check_rate: float
    """Checks passed over all checks (every check weighs the same)."""
    mean_request_score: float
    """Mean over requests of the share of its checks passed (every request weighs the same)."""
    by_language: dict[str, str]
    """Language -> ``met/requests``."""
    wall_mean_s: float
    wall_median_s: float
    wall_total_s: float
    tokens_per_request: float
    llm_calls_per_request: float
    statuses: dict[str, int]
    stated_files_missing: int
    """Requests whose project lacks a file the request names."""
    own_green: int | None = None
    """Pipeline: requests it reported green (all its modules passed its own tests)."""
    own_green_not_met: int | None = None
    """Pipeline: reported green, but some acceptance check fails."""
    own_not_green_met: int | None = None
    """Pipeline: reported a failure, but every acceptance check passes."""


class RequestComparison(BaseModel):
    """``pipeline`` minus ``one-call`` on the requests both finished."""

    paired_requests: int
    one_call_met: int
    pipeline_met: int
    met_difference_points: float
    met_ci95_points: tuple[float, float]
    only_pipeline_met: list[str]
    only_one_call_met: list[str]
    mcnemar_p_value: float
    score_difference_points: float
    """Mean difference of the share of checks passed per request."""
    score_ci95_points: tuple[float, float]
    bootstrap_seed: int = BOOTSTRAP_SEED


class RequestSummary(BaseModel):
    """Content of ``summary.json``."""

    modes: dict[str, RequestModeSummary]
    comparison: RequestComparison | None = None


def summarize_mode(results: Sequence[RequestResult]) -> RequestModeSummary:
    """Aggregates of one mode's results (not empty)."""
    n = len(results)
    walls = [r.wall_s for r in results]
    checks = sum(r.checks for r in results)
    passed = sum(r.passed for r in results)
    languages = sorted({r.language for r in results})
    statuses: dict[str, int] = {}
    for r in results:
        statuses[r.status] = statuses.get(r.status, 0) + 1
    own = [r for r in results if r.mode == "pipeline"]
    return RequestModeSummary(
        requests=n,
        met=sum(r.met for r in results),
        met_rate=sum(r.met for r in results) / n,
        checks=checks,
        checks_passed=passed,
        check_rate=passed / checks,
        mean_request_score=statistics.fmean(r.fraction for r in results),
        by_language={
            lang: f"{sum(r.met for r in results if r.language == lang)}/"
            f"{sum(r.language == lang for r in results)}"
            for lang in languages
        },
        wall_mean_s=statistics.fmean(walls),
        wall_median_s=statistics.median(walls),
        wall_total_s=sum(walls),
        tokens_per_request=sum(r.tokens for r in results) / n,
        llm_calls_per_request=sum(r.llm_calls for r in results) / n,
        statuses=dict(sorted(statuses.items())),
        stated_files_missing=sum(bool(r.stated_files_missing) for r in results),
        own_green=sum(bool(r.own_green) for r in own) if own else None,
        own_green_not_met=sum(bool(r.own_green) and not r.met for r in own) if own else None,
        own_not_green_met=sum(not r.own_green and r.met for r in own) if own else None,
    )


def compare(results: Sequence[RequestResult]) -> RequestComparison | None:
    """The paired comparison, or None unless both modes finished some request."""
    one = {r.id: r for r in results if r.mode == "one-call"}
    pairs = [(one[r.id], r) for r in results if r.mode == "pipeline" and r.id in one]
    if not pairs:
        return None
    met_diffs = [int(p.met) - int(o.met) for o, p in pairs]
    score_diffs = [p.fraction - o.fraction for o, p in pairs]
    only_pipeline = [p.id for o, p in pairs if p.met and not o.met]
    only_one_call = [p.id for o, p in pairs if o.met and not p.met]
    met_low, met_high = paired_bootstrap_ci(met_diffs)
    score_low, score_high = paired_bootstrap_ci(score_diffs)
    n = len(pairs)
    return RequestComparison(
        paired_requests=n,
        one_call_met=sum(o.met for o, _ in pairs),
        pipeline_met=sum(p.met for _, p in pairs),
        met_difference_points=100 * sum(met_diffs) / n,
        met_ci95_points=(100 * met_low, 100 * met_high),
        only_pipeline_met=only_pipeline,
        only_one_call_met=only_one_call,
        mcnemar_p_value=mcnemar_exact(len(only_pipeline), len(only_one_call)),
        score_difference_points=100 * statistics.fmean(score_diffs),
        score_ci95_points=(100 * score_low, 100 * score_high),
    )


def summarize(results: Sequence[RequestResult]) -> RequestSummary:
    """Per-mode aggregates and, when both modes ran, the comparison."""
    modes = {
        mode: summarize_mode(rows)
        for mode in REQUEST_MODES
        if (rows := [r for r in results if r.mode == mode])
    }
    return RequestSummary(modes=modes, comparison=compare(results))


def _cell(result: RequestResult | None) -> str:
    if result is None:
        return "–"
    mark = "**met**" if result.met else result.status
    return f"{result.passed}/{result.checks} {mark}"


def _verdict(result: RequestResult | None) -> str:
    if result is None or result.mode != "pipeline":
        return "–"
    modules = result.own_modules or []
    listed = ", ".join(f"{m.name} {m.status} {m.tests_passed}/{m.tests_total}" for m in modules)
    verdict = "green" if result.own_green else "not green"
    wrong = " (wrong)" if bool(result.own_green) != result.met else ""
    return f"{result.own_status}, {verdict}{wrong}" + (f": {listed}" if listed else "")


def _mode_table(summary: RequestSummary) -> list[str]:
    order = [m for m in REQUEST_MODES if m in summary.modes]
    ms = summary.modes
    rows: list[tuple[str, Callable[[RequestModeSummary], str]]] = [
        ("requests met", lambda s: f"{s.met}/{s.requests} ({100 * s.met_rate:.1f}%)"),
        ("checks passed", lambda s: f"{s.checks_passed}/{s.checks} ({100 * s.check_rate:.1f}%)"),
        ("mean share of checks per request", lambda s: f"{100 * s.mean_request_score:.1f}%"),
        ("met by language", lambda s: ", ".join(f"{k} {v}" for k, v in s.by_language.items())),
        (
            "wall per request, mean / median (s)",
            lambda s: f"{s.wall_mean_s:.1f} / {s.wall_median_s:.1f}",
        ),
        ("wall in all (s)", lambda s: f"{s.wall_total_s:.0f}"),
        ("tokens per request", lambda s: f"{s.tokens_per_request:.0f}"),
        ("LLM calls per request", lambda s: f"{s.llm_calls_per_request:.1f}"),
        ("statuses", lambda s: ", ".join(f"{k} {v}" for k, v in s.statuses.items())),
        ("a stated file missing", lambda s: str(s.stated_files_missing)),
        ("own verdict green", lambda s: "–" if s.own_green is None else str(s.own_green)),
        ("green but not met", lambda s: "–" if s.own_green is None else str(s.own_green_not_met)),
        ("not green but met", lambda s: "–" if s.own_green is None else str(s.own_not_green_met)),
    ]
    lines = ["| | " + " | ".join(order) + " |", "| --- |" + " --- |" * len(order)]
    lines += [f"| {label} | " + " | ".join(get(ms[m]) for m in order) + " |" for label, get in rows]
    return lines


def _comparison_lines(c: RequestComparison | None) -> list[str]:
    if c is None:
        return []
    return [
        "",
        f"Pipeline − one call on {c.paired_requests} paired requests: requests met "
        f"{c.pipeline_met} vs {c.one_call_met}, {c.met_difference_points:+.1f} points "
        f"(95% CI {c.met_ci95_points[0]:+.1f} to {c.met_ci95_points[1]:+.1f}; McNemar "
        f"p = {c.mcnemar_p_value:.3g}); share of checks per request "
        f"{c.score_difference_points:+.1f} points (95% CI {c.score_ci95_points[0]:+.1f} to "
        f"{c.score_ci95_points[1]:+.1f}). Only the pipeline met: "
        f"{', '.join(c.only_pipeline_met) or 'none'}; only one call met: "
        f"{', '.join(c.only_one_call_met) or 'none'}.",
    ]


def _request_rows(results: Sequence[RequestResult]) -> list[str]:
    by_key = {(r.id, r.mode): r for r in results}
    ids = list(dict.fromkeys(r.id for r in results))
    lines = [
        "| request | language | one call | pipeline | pipeline's own verdict | wall (s) one / pipe "
        "| tokens one / pipe |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for rid in ids:
        one, pipe = by_key.get((rid, "one-call")), by_key.get((rid, "pipeline"))
        any_result = one or pipe
        assert any_result is not None
        wall = " / ".join("–" if r is None else f"{r.wall_s:.0f}" for r in (one, pipe))
        tokens = " / ".join("–" if r is None else str(r.tokens) for r in (one, pipe))
        lines.append(
            f"| {rid} | {any_result.language} | {_cell(one)} | {_cell(pipe)} | "
            f"{_verdict(pipe)} | {wall} | {tokens} |"
        )
    return lines


def render_markdown(title: str, summary: RequestSummary, results: Sequence[RequestResult]) -> str:
    """The human-readable report."""
    lines = [f"# Request benchmark: {title}", "", *_mode_table(summary)]
    lines += _comparison_lines(summary.comparison)
    lines += ["", "## Per request", "", *_request_rows(results)]
    misses = [r for r in results if r.failures or r.error or r.stated_files_missing]
    if misses:
        lines += ["", "## What failed", ""]
        for r in misses:
            what = r.error or r.score_message or "; ".join(r.failures[:3])
            missing = (
                f" missing {', '.join(r.stated_files_missing)};" if r.stated_files_missing else ""
            )
            lines.append(f"- {r.id} {r.mode}:{missing} {what}".rstrip()[:400])
    return "\n".join(lines) + "\n"


def write_reports(out_dir: Path, title: str, results: Sequence[RequestResult]) -> RequestSummary:
    """Write ``summary.json`` and ``report.md``; returns the summary."""
    summary = summarize(results)
    write_json(out_dir / SUMMARY_FILE, summary.model_dump(mode="json"))
    (out_dir / REPORT_MD).write_text(render_markdown(title, summary, results), encoding="utf-8")
    return summary
