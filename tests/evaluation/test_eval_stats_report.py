"""Summary statistics on a hand-made result set, and the report files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from codeproof.evaluation.report import FIGURES, write_reports
from codeproof.evaluation.results import RunInfo, TaskResult
from codeproof.evaluation.stats import mcnemar_exact, paired_bootstrap_ci, summarize


def _result(mode: str, i: int, passed: bool, **kw: object) -> TaskResult:
    return TaskResult.model_validate(
        {"task_id": f"T{i}", "mode": mode, "language": "python", "passed": passed,
         "status": "passed" if passed else "failed", **kw}
    )  # fmt: skip


SINGLE = [
    _result("single", i, p, wall_s=w, prompt_tokens=100, completion_tokens=c, llm_calls=1,
            cache_hits=h)
    for i, p, w, c, h in [(1, True, 1, 10, 1), (2, False, 2, 20, 0), (3, False, 3, 30, 0),
                          (4, True, 4, 40, 0), (5, False, 10, 50, 0)]
]  # fmt: skip
PIPELINE = [
    _result("pipeline", i, p, own_tests_green=g, attempts=a, wall_s=w, prompt_tokens=1000,
            completion_tokens=100, cost_usd=0.01, llm_calls=n, cache_hits=h)
    for i, p, g, a, w, n, h in [(1, True, True, 1, 5, 3, 0), (2, True, True, 2, 10, 4, 1),
                                (3, True, False, 5, 20, 8, 0), (4, False, False, 5, 30, 8, 0),
                                (5, True, True, 1, 35, 3, 1)]
]  # fmt: skip


def test_mode_summaries_are_exact() -> None:
    summary = summarize(SINGLE + PIPELINE)
    single, pipeline = summary.modes["single"], summary.modes["pipeline"]
    assert (single.tasks, single.passed, single.pass_at_1) == (5, 2, 0.4)
    assert single.success_rate is None
    assert (single.latency_mean_s, single.latency_median_s) == (4.0, 3)
    assert (single.tokens_per_task, single.tokens_per_solved_task) == (130.0, 325.0)
    assert (single.cache_hit_rate, single.attempts_histogram) == (0.2, {"1": 5})
    assert (pipeline.pass_at_1, pipeline.success_rate) == (0.8, 0.6)
    assert (pipeline.latency_mean_s, pipeline.latency_median_s) == (20.0, 20)
    assert (pipeline.tokens_per_task, pipeline.tokens_per_solved_task) == (1100.0, 1375.0)
    assert pipeline.cost_usd == pytest.approx(0.05)
    assert pipeline.cache_hit_rate == pytest.approx(2 / 26)
    assert pipeline.attempts_histogram == {"1": 2, "2": 1, "5": 2}


def test_paired_comparison_is_exact_and_reproducible() -> None:
    c = summarize(SINGLE + PIPELINE).comparison
    assert c is not None
    assert (c.paired_tasks, c.difference_points) == (5, 40.0)
    assert (c.only_pipeline_passed, c.only_single_passed) == (3, 1)
    assert c.mcnemar_p_value == 0.625  # 2 * (C(4,0) + C(4,1)) / 2**4
    assert c.ci95_low_points <= c.difference_points <= c.ci95_high_points
    assert (c.ci95_low_points, c.ci95_high_points) == (-40.0, 100.0)  # pinned: fixed seed
    again = summarize(list(reversed(SINGLE + PIPELINE))).comparison
    assert again is not None and again.ci95_low_points == c.ci95_low_points


def test_statistics_edge_cases() -> None:
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(10, 0) == 2 / 1024
    assert mcnemar_exact(3, 3) == 1.0
    assert paired_bootstrap_ci([0, 0, 0]) == (0.0, 0.0)
    assert paired_bootstrap_ci([1] * 7) == (1.0, 1.0)
    assert summarize(SINGLE).comparison is None


def test_reports_are_written_self_contained(tmp_path: Path) -> None:
    info = RunInfo(
        dataset="tiny", provider="fake", model="m", modes=["single", "pipeline"], limit=None,
        sample_seed=0, max_attempts=5, task_ids=[f"T{i}" for i in range(1, 6)],
    )  # fmt: skip
    write_reports(tmp_path, info, SINGLE + PIPELINE)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["modes"]["pipeline"]["pass_at_1"] == 0.8
    assert summary["comparison"]["difference_points"] == 40.0
    html = (tmp_path / "report.html").read_text()
    assert html.count("<svg") == len(FIGURES) == 4
    assert all(title in html for title in ("pass@1 by mode", "Attempts distribution"))
    assert all(title in html for title in ("Latency CDF", "Tokens per task"))
    assert "+40.0 points" in html and "McNemar exact p = 0.625" in html
    assert ">n/a</text>" in html  # single mode has no own tests
    assert "<script" not in html
    assert re.findall(r"(?:src|href)=", html) == []
    md = (tmp_path / "report.md").read_text()
    assert "| pass@1 (hidden tests) | 0.400 | 0.800 |" in md
    for key in FIGURES:
        assert f"(fig-{key}.svg)" in md
        assert (tmp_path / f"fig-{key}.svg").read_text().startswith("<svg")


GREEN = [
    _result("pipeline", i, p, own_tests_green=g, tests_green=t, mutation_score=m)
    for i, p, g, t, m in [
        (1, True, True, True, 0.9),  # green and correct
        (2, False, True, True, 0.7),  # green yet wrong: a false green
        (3, True, False, True, 0.4),  # correct, tests pass, proof weak: not green
        (4, True, False, False, None),  # correct but its own tests fail
        (5, False, False, True, 0.2),  # wrong, tests pass: the proof kept it from green
        (6, False, None, None, None),  # an error: no verdict, left out
    ]
]


def test_green_precision_and_recall_next_to_pass_at_1() -> None:
    pipeline = summarize(GREEN).modes["pipeline"]
    assert (pipeline.passed, pipeline.pass_at_1) == (3, 0.5)
    assert pipeline.green == 2
    assert pipeline.green_precision == 0.5  # 1 correct among the 2 green
    assert pipeline.green_recall == pytest.approx(1 / 3)  # 1 green among the 3 correct
    assert pipeline.tests_green_precision == 0.5  # 2 correct among 4 whose tests pass
    assert pipeline.tests_green_recall == pytest.approx(2 / 3)
    assert pipeline.mutation_score_median == 0.55
    single = summarize(SINGLE).modes["single"]
    assert (single.green, single.green_precision, single.green_recall) == (None, None, None)


def test_green_metrics_have_no_base_without_greens_or_correct_tasks() -> None:
    wrong = [_result("pipeline", i, False, own_tests_green=False) for i in range(3)]
    pipeline = summarize(wrong).modes["pipeline"]
    assert (pipeline.green, pipeline.green_precision, pipeline.green_recall) == (0, None, None)


def test_report_shows_green_precision_and_recall(tmp_path: Path) -> None:
    info = RunInfo(
        dataset="tiny", provider="fake", model="m", modes=["pipeline"], limit=None,
        sample_seed=0, max_attempts=5, task_ids=[r.task_id for r in GREEN],
    )  # fmt: skip
    write_reports(tmp_path, info, GREEN)
    md = (tmp_path / "report.md").read_text()
    assert "| pass@1 (hidden tests) | 0.500 |" in md
    assert "| green precision (correct among green) | 0.500 |" in md
    assert "| green recall (green among correct) | 0.333 |" in md
    assert "| tests-green precision (before the proof) | 0.500 |" in md
    assert "| median mutation score | 0.550 |" in md
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["modes"]["pipeline"]["green_recall"] == pytest.approx(1 / 3)
