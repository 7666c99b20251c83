"""Scoring in the real sandbox: canonical solutions pass, empty bodies fail, limits hold."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from codeproof.evaluation.datasets import KNOWN_BROKEN_CANONICAL, Task, load_dataset
from codeproof.evaluation.extract import assemble
from codeproof.evaluation.scoring import Scorer

pytestmark = [pytest.mark.docker]


@pytest.mark.slow
@pytest.mark.parametrize("dataset", ["humaneval", "humaneval-x-js", "humaneval-x-java"])
def test_canonical_pass_and_empty_bodies_fail(
    dataset: str, make_scorer: Callable[..., Scorer], shared_benchmarks: Path
) -> None:
    tasks = load_dataset(dataset, data_dir=shared_benchmarks)
    canonical = [(t, assemble(t, t.canonical_solution or "")) for t in tasks]
    empty = [(t, assemble(t, "")) for t in tasks]
    scores = make_scorer().score(canonical + empty)  # timings: benchmarks/eval_scoring.py
    by_kind = scores[: len(tasks)], scores[len(tasks) :]
    failed_canonical = {s.task_id: s.output for s in by_kind[0] if not s.passed}
    broken = {tid for tid in KNOWN_BROKEN_CANONICAL if tid.split("/")[0] in tasks[0].task_id}
    assert set(failed_canonical) == broken, failed_canonical
    assert [s.task_id for s in by_kind[1] if s.passed] == []


def test_javascript_console_assert_failure_counts(make_scorer: Callable[..., Scorer]) -> None:
    task = Task(
        task_id="js/assert",
        prompt="const one = () => {\n",
        entry_point="one",
        test="console.assert(one() === 1)\nconsole.log('done')\n",
        language="javascript",
    )
    right, wrong = make_scorer().score(
        [(task, assemble(task, "  return 1")), (task, assemble(task, "  return 2"))]
    )
    assert right.passed and right.exit_code == 0
    assert not wrong.passed and "Assertion failed" in wrong.output


def test_each_task_has_its_own_time_and_output_limits(make_scorer: Callable[..., Scorer]) -> None:
    task = Task(
        task_id="py/loop",
        prompt="def spin(n):\n",
        entry_point="spin",
        test="def check(candidate):\n    assert candidate(1) == 1\n",
    )
    loop = assemble(task, "    while True:\n        pass")
    flood = assemble(task, "    while True:\n        print('x' * 100000)")
    ok = assemble(task, "    return n")
    spun, flooded, fine = make_scorer(timeout_s=3).score([(task, loop), (task, flood), (task, ok)])
    assert spun.status == "timeout" and not spun.passed
    assert 2.5 <= spun.duration_s <= 8.0
    assert flooded.status == "failed" and flooded.duration_s < 3  # output capped at 1 MiB
    assert fine.passed and fine.status == "passed"


def test_java_compile_error_is_reported_per_task(make_scorer: Callable[..., Scorer]) -> None:
    task = Task(
        task_id="java/x",
        prompt="class Solution {\n    public int one() {\n",
        entry_point="one",
        test="public class Main {\n    public static void main(String[] a) {\n"
        "        if (new Solution().one() != 1) throw new AssertionError();\n    }\n}\n",
        language="java",
    )
    broken, right = make_scorer().score(
        [(task, assemble(task, "return nope;")), (task, assemble(task, "return 1;"))]
    )
    assert not broken.passed and "cannot find symbol" in broken.output
    assert right.passed
