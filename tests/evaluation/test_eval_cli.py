"""`codeproof eval` user errors and the results store's resume rules."""

from __future__ import annotations

import json
import sys
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from codeproof.cli import main
from codeproof.core.errors import InputError, SandboxError
from codeproof.evaluation.datasets import Task
from codeproof.evaluation.results import ResultStore, RunInfo, TaskResult
from codeproof.evaluation.scoring import Scorer
from codeproof.sandbox.base import Limits, SandboxSession


def _eval(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run ``codeproof eval ARGS`` in-process; (exit code, stderr)."""
    with (
        pytest.MonkeyPatch.context() as patch,
        pytest.raises(SystemExit) as exited,
    ):
        patch.setattr(sys, "argv", ["codeproof", "eval", *args])
        main()
    return int(exited.value.code or 0), capsys.readouterr().err


def test_bad_dataset_line_is_a_one_line_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "mine.jsonl"
    good = {"task_id": "a", "prompt": "def f():\n", "entry_point": "f", "test": "x"}
    data.write_text(json.dumps(good) + "\n" + json.dumps({"task_id": "b"}) + "\n")
    code, err = _eval("--dataset", str(data), "--out", str(tmp_path / "out"), capsys=capsys)
    assert code == 2
    assert "mine.jsonl:2: field 'prompt' is missing" in err
    assert "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_invalid_limit_is_a_user_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _eval("--dataset", "humaneval", "--limit", "0", capsys=capsys)
    assert code == 2 and "--limit must be positive" in err


def _info(**changes: object) -> RunInfo:
    base = {
        "dataset": "humaneval", "provider": "fake", "model": "m", "modes": ["single"],
        "limit": 2, "sample_seed": 1, "max_attempts": 5, "task_ids": ["a", "b"],
    }  # fmt: skip
    return RunInfo.model_validate({**base, **changes})


def test_resume_requires_the_same_run(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    assert store.prepare(_info(), resume=False) == []
    row = TaskResult(task_id="a", mode="single", language="python", passed=True, status="passed")
    store.append(row)
    store.append(row.model_copy(update={"passed": False, "status": "failed"}))
    assert store.load() == [row.model_copy(update={"passed": False, "status": "failed"})]
    assert len(store.prepare(_info(), resume=True)) == 1
    with pytest.raises(InputError, match="sample_seed=1, not 2"):
        store.prepare(_info(sample_seed=2), resume=True)
    store.prepare(_info(candidates=4), resume=True)  # recorded from now on
    with pytest.raises(InputError, match="candidates=4, not 2"):
        store.prepare(_info(candidates=2), resume=True)
    (tmp_path / "results.jsonl").write_text("{broken\n")
    with pytest.raises(InputError, match=r"results\.jsonl:1"):
        store.load()


def test_a_closed_scorer_opens_no_new_session() -> None:
    def never(language: str, limits: Limits) -> AbstractContextManager[SandboxSession]:
        raise AssertionError("a closed scorer must not open a session")

    scorer = Scorer(never)
    scorer.close()
    task = Task(task_id="t", prompt="def f():\n", entry_point="f", test="def check(c): pass")
    with pytest.raises(SandboxError, match="closed"):
        scorer.score([(task, task.prompt)])


def test_progress_estimates_the_time_left_from_this_runs_pace() -> None:
    from codeproof.commands.eval import Progress

    now = [100.0]
    progress = Progress(clock=lambda: now[0])
    result = TaskResult(
        task_id="T/1", mode="pipeline", language="python", passed=True, status="passed",
        wall_s=240.0, prompt_tokens=900, completion_tokens=100,
    )  # fmt: skip

    now[0] += 600  # a resumed run: 30 of 40 tasks were finished before; 2 finished here
    progress.line(result, 31, 40)
    now[0] += 600
    second = progress.line(result, 32, 40)
    last = progress.line(result, 40, 40)

    # 1200 s for 2 tasks here: 8 tasks left take about 80 minutes
    assert second == (
        "[32/40] pipeline T/1                      [green]pass[/] attempts=1 240.0s 1000 tok"
        " · about 1 h 20 min left"
    )
    assert "left" not in last
