"""One real single-shot run with the 0.5B model on two tiny tasks."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from codeproof.evaluation.datasets import Task
from codeproof.evaluation.runner import EvalOptions, Evaluator
from codeproof.evaluation.scoring import Scorer
from codeproof.llm.local import LocalChatModel

pytestmark = [pytest.mark.real_model, pytest.mark.slow, pytest.mark.docker]


@pytest.mark.usefixtures("allow_model")
def test_single_mode_with_the_small_model(
    small_local_model: LocalChatModel,
    tiny_tasks: list[Task],
    make_scorer: Callable[..., Scorer],
    tmp_path: Path,
) -> None:
    options = EvalOptions(dataset="tiny", modes=("single",), max_tokens=256)
    summary = Evaluator(small_local_model, make_scorer(), None, options, tmp_path).run(tiny_tasks)
    rows = {
        r["task_id"]: r
        for r in map(json.loads, (tmp_path / "results.jsonl").read_text().splitlines())
    }
    assert set(rows) == {"tiny/add", "tiny/is_even"}
    for row in rows.values():
        assert row["llm_calls"] == 1 and row["completion_tokens"] > 0
        assert row["wall_s"] > 0
        compile(row["final_code"], row["task_id"], "exec")  # a complete Python program
    assert rows["tiny/add"]["passed"], rows["tiny/add"]["final_code"]
    assert summary.modes["single"].tasks == 2
