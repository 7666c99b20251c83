"""Summary statistics of an evaluation and the paired comparison of two modes.

The difference of pass@1 between ``pipeline`` and ``single`` is computed on the tasks
both modes ran (paired). Its 95% confidence interval comes from a paired bootstrap over
tasks with a fixed seed (reproducible), and McNemar's exact test gives a two-sided p-value
from the discordant pairs only.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel

from codeproof.evaluation.results import MODES, Mode, TaskResult

BOOTSTRAP_SEED = 20240613
BOOTSTRAP_RESAMPLES = 10_000


class ModeSummary(BaseModel):
    """Aggregates of one mode."""

    tasks: int
    passed: int
    pass_at_1: float
    success_rate: float | None
    errors: int
    latency_mean_s: float
    latency_median_s: float
    tokens_per_task: float
    tokens_per_solved_task: float | None
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    cached_prompt_tokens: int = 0
    """Prompt tokens reused from the engine's prompt cache (not processed again)."""
    draft_acceptance: float | None = None
    """Share of speculative draft tokens the model accepted."""
    cost_per_task_usd: float
    llm_calls: int
    cache_hits: int
    cache_hit_rate: float | None
    attempts_histogram: dict[str, int]
    any_draft_passed: int | None = None
    """Pipeline: tasks where at least one first draft passes the hidden tests (the most
    a perfect choice without repair could reach)."""
    chosen_draft_passed: int | None = None
    """Pipeline: tasks where the draft the choice picked passes the hidden tests."""
    drafts_scored: int | None = None
    """Pipeline: tasks whose drafts were scored (runs before this was recorded have none)."""
    green: int | None = None
    """Pipeline: tasks reported green (own tests pass on a moderately strong proof)."""
    green_precision: float | None = None
    """Pipeline: correct (hidden tests pass) among the tasks reported green."""
    green_recall: float | None = None
    """Pipeline: reported green among the correct tasks."""
    tests_green_precision: float | None = None
    """Pipeline: correct among the tasks whose own tests pass, whatever the proof says."""
    tests_green_recall: float | None = None
    """Pipeline: own tests pass among the correct tasks."""
    mutation_score_median: float | None = None
    """Pipeline: the median mutation score of the kept tests over the tasks measured."""


class Comparison(BaseModel):
    """``pipeline`` minus ``single`` on the tasks both ran (pass@1, in points)."""

    paired_tasks: int
    single_pass_at_1: float
    pipeline_pass_at_1: float
    difference_points: float
    ci95_low_points: float
    ci95_high_points: float
    bootstrap_resamples: int
    bootstrap_seed: int
    only_pipeline_passed: int
    only_single_passed: int
    mcnemar_p_value: float


class Summary(BaseModel):
    """Content of ``summary.json``."""

    modes: dict[str, ModeSummary]
    comparison: Comparison | None = None


def summarize_mode(results: Sequence[TaskResult]) -> ModeSummary:
    """Aggregates of one mode's results (must not be empty)."""
    n = len(results)
    passed = sum(r.passed for r in results)
    own = [r.own_tests_green for r in results if r.own_tests_green is not None]
    tokens = sum(r.tokens for r in results)
    calls = sum(r.llm_calls for r in results)
    hits = sum(r.cache_hits for r in results)
    cost = sum(r.cost_usd for r in results)
    latencies = [r.wall_s for r in results]
    histogram = Counter(r.attempts for r in results)
    scored = [r for r in results if r.drafts_passed]
    return ModeSummary(
        tasks=n,
        passed=passed,
        pass_at_1=passed / n,
        success_rate=sum(own) / n if own else None,
        errors=sum(r.error is not None for r in results),
        latency_mean_s=statistics.fmean(latencies),
        latency_median_s=statistics.median(latencies),
        tokens_per_task=tokens / n,
        tokens_per_solved_task=tokens / passed if passed else None,
        prompt_tokens=sum(r.prompt_tokens for r in results),
        completion_tokens=sum(r.completion_tokens for r in results),
        cost_usd=cost,
        cached_prompt_tokens=sum(r.cached_prompt_tokens for r in results),
        draft_acceptance=_acceptance(results),
        cost_per_task_usd=cost / n,
        llm_calls=calls,
        cache_hits=hits,
        cache_hit_rate=hits / calls if calls else None,
        attempts_histogram={str(k): histogram[k] for k in sorted(histogram)},
        any_draft_passed=sum(any(r.drafts_passed or ()) for r in scored) if scored else None,
        chosen_draft_passed=sum(_chosen_passed(r) for r in scored) if scored else None,
        drafts_scored=len(scored) or None,
        **_green_metrics(results),
    )


def _acceptance(results: Sequence[TaskResult]) -> float | None:
    drafted = sum(r.draft_tokens for r in results)
    return round(sum(r.draft_accepted for r in results) / drafted, 4) if drafted else None


def precision_recall(
    results: Sequence[TaskResult], green: Sequence[bool | None]
) -> tuple[int | None, float | None, float | None]:
    """``(green, precision, recall)`` of a per-task green verdict against ``passed``
    (tasks whose verdict is ``None`` are left out; ``None`` where a ratio has no base)."""
    pairs = [(r.passed, g) for r, g in zip(results, green, strict=True) if g is not None]
    if not pairs:
        return None, None, None
    greens = sum(g for _, g in pairs)
    correct = sum(p for p, _ in pairs)
    both = sum(p and g for p, g in pairs)
    return greens, both / greens if greens else None, both / correct if correct else None


def _green_metrics(results: Sequence[TaskResult]) -> dict[str, float | int | None]:
    green, precision, recall = precision_recall(results, [r.own_tests_green for r in results])
    _, tests_precision, tests_recall = precision_recall(results, [r.tests_green for r in results])
    scores = [r.mutation_score for r in results if r.mutation_score is not None]
    return {
        "green": green,
        "green_precision": precision,
        "green_recall": recall,
        "tests_green_precision": tests_precision,
        "tests_green_recall": tests_recall,
        "mutation_score_median": statistics.median(scores) if scores else None,
    }


def _chosen_passed(result: TaskResult) -> bool:
    drafts, chosen = result.drafts_passed or [], result.chosen_draft
    return chosen is not None and 0 <= chosen < len(drafts) and drafts[chosen]


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value from the two discordant counts."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    k = min(only_a, only_b)
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def paired_bootstrap_ci(
    diffs: Sequence[float],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[float, float]:
    """95% percentile interval of the mean of per-task differences (-1, 0 or 1 for pass@1;
    any number for a per-task score such as the share of checks passed)."""
    n = len(diffs)
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(diffs, k=n)) / n for _ in range(resamples))
    return means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def compare(single: Sequence[TaskResult], pipeline: Sequence[TaskResult]) -> Comparison | None:
    """Paired comparison on the tasks both modes ran; ``None`` when there is none."""
    by_task = {r.task_id: r for r in single}
    pairs = [(by_task[r.task_id], r) for r in pipeline if r.task_id in by_task]
    if not pairs:
        return None
    diffs = [int(p.passed) - int(s.passed) for s, p in pairs]
    n = len(pairs)
    low, high = paired_bootstrap_ci(diffs)
    only_pipeline = sum(d == 1 for d in diffs)
    only_single = sum(d == -1 for d in diffs)
    return Comparison(
        paired_tasks=n,
        single_pass_at_1=sum(s.passed for s, _ in pairs) / n,
        pipeline_pass_at_1=sum(p.passed for _, p in pairs) / n,
        difference_points=100 * sum(diffs) / n,
        ci95_low_points=100 * low,
        ci95_high_points=100 * high,
        bootstrap_resamples=BOOTSTRAP_RESAMPLES,
        bootstrap_seed=BOOTSTRAP_SEED,
        only_pipeline_passed=only_pipeline,
        only_single_passed=only_single,
        mcnemar_p_value=mcnemar_exact(only_pipeline, only_single),
    )


def summarize(results: Sequence[TaskResult]) -> Summary:
    """Per-mode aggregates, and the comparison when both modes have results."""
    grouped: dict[Mode, list[TaskResult]] = {m: [r for r in results if r.mode == m] for m in MODES}
    modes = {m: summarize_mode(rs) for m, rs in grouped.items() if rs}
    comparison = None
    if grouped["single"] and grouped["pipeline"]:
        comparison = compare(grouped["single"], grouped["pipeline"])
    return Summary(modes=modes, comparison=comparison)
