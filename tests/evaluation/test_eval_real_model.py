"""Real runs with the 0.5B model: single-shot on two tiny tasks, the pipeline on one."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from codeproof.core.config import Settings
from codeproof.evaluation.datasets import Task
from codeproof.evaluation.replay import replay_task
from codeproof.evaluation.results import ResultStore
from codeproof.evaluation.runner import EvalOptions, Evaluator
from codeproof.evaluation.scoring import Scorer
from codeproof.llm.local import LocalChatModel
from codeproof.toolchains.client import open_toolchain

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


@pytest.mark.timeout(1500)  # the engine and its proof: 600 s is too short on a loaded machine
@pytest.mark.usefixtures("allow_model")
def test_pipeline_mode_with_the_small_model(
    small_local_model: LocalChatModel,
    tiny_tasks: list[Task],
    make_scorer: Callable[..., Scorer],
    docker_ready: Settings,
    tmp_path: Path,
) -> None:
    [add] = [t for t in tiny_tasks if t.task_id == "tiny/add"]
    options = EvalOptions(
        dataset="tiny",
        modes=("pipeline",),
        candidates=2,
        probe_inputs=3,
        max_attempts=2,
        max_tokens=256,
    )
    summary = Evaluator(
        small_local_model,
        make_scorer(),
        lambda language: open_toolchain(docker_ready, language),
        options,
        tmp_path,
    ).run([add])
    [row] = map(json.loads, (tmp_path / "results.jsonl").read_text().splitlines())
    # the designed tests and the prompt's completion; more drafts (probe inputs, a plan, the
    # programmer's draft) or repairs only while the evidence is against the current choice
    drafts = len(row["draft_files"])
    assert drafts >= 1 and row["attempts"] >= 1
    assert row["llm_calls"] >= 1 + drafts, row
    assert row["history"][0].startswith("chose candidate"), row["history"]
    if drafts == 1 and row["attempts"] == 1:  # it stopped at once: only on green
        assert row["own_tests_green"] is True, row
        assert row["llm_calls"] == 2, row
    assert isinstance(row["own_tests_green"], bool)
    compile(row["final_code"], "add", "exec")
    assert row["passed"], row["final_code"]
    assert summary.modes["pipeline"].tasks == 1
    # the evidence of the choice is kept, and replaying it picks the same draft
    assert isinstance(row["probe_inputs"], list)
    [stored] = ResultStore(tmp_path).load()
    with open_toolchain(docker_ready, "python") as client:
        again = replay_task(client, stored, add)
    assert again.replayed == again.stored == row["chosen_draft"]
