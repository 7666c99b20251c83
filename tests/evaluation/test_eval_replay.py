"""`codeproof eval-replay`: stored choices made again in the sandbox, and its user errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from codeproof.cli import main
from codeproof.core.config import Settings
from codeproof.evaluation.replay import ReplayedTask, summarize
from codeproof.evaluation.results import ResultStore, RunInfo, TaskResult

IS_EVEN_TESTS = {
    "test_is_even.py": "from is_even import is_even\n\n\ndef test_four():\n    assert is_even(4)\n"
}
# both pass the designed test and the docstring's example; only a proposed input
# (a negative number) tells them apart, and two drafts agree on the right reading
DRAFTS = [
    {"is_even.py": "def is_even(n):\n    return n in (0, 2, 4, 6, 8) or n > 8 and n % 2 == 0\n"},
    {"is_even.py": "def is_even(n):\n    return n % 2 == 0\n"},
    {"is_even.py": "def is_even(n):\n    return not n & 1\n"},
]


def _cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.MonkeyPatch.context() as patch, pytest.raises(SystemExit) as exited:
        patch.setattr(sys, "argv", ["codeproof", "eval-replay", *args])
        main()
    captured = capsys.readouterr()
    return int(exited.value.code or 0), captured.out, captured.err


def _store(out: Path, dataset: Path, *, evidence: bool = True) -> None:
    info = RunInfo(
        dataset=str(dataset), provider="fake", model="m", modes=["pipeline"], limit=None,
        sample_seed=0, max_attempts=3, task_ids=["tiny/is_even"], candidates=3, probe_inputs=4,
    )  # fmt: skip
    store = ResultStore(out)
    store.prepare(info, resume=False)
    row = TaskResult(
        task_id="tiny/is_even",
        mode="pipeline",
        language="python",
        passed=False,
        status="failed",
        drafts_passed=[False, True, True],
        chosen_draft=0,
    )
    if evidence:
        row = row.model_copy(
            update={
                "draft_files": DRAFTS,
                "designed_tests": IS_EVEN_TESTS,
                "probe_inputs": ["is_even(-3)", "is_even(-4)", "print('x')"],
            }
        )
    store.append(row)


@pytest.mark.docker
def test_replay_makes_the_choice_again_with_and_without_the_inputs(
    docker_ready: Settings,
    tiny_dataset: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CODEPROOF_SANDBOX__BACKEND", "docker")
    out = tmp_path / "run"
    _store(out, tiny_dataset)

    code, stdout, _ = _cli(str(out), capsys=capsys)
    assert code == 0, stdout
    replay = json.loads((out / "replay.json").read_text())
    assert replay["gained"] == ["tiny/is_even"] and replay["lost"] == []
    assert replay["stored_passed"] == 0 and replay["replayed_passed"] == 1
    [row] = replay["rows"]
    assert row["replayed"] == 1 and "2 proposed" in row["note"]
    assert "gained: tiny/is_even" in stdout

    code, stdout, _ = _cli(str(out), "--no-inputs", "--no-mutants", capsys=capsys)
    assert code == 0
    same = json.loads((out / "replay-no-inputs-no-mutants.json").read_text())
    assert same["rows"][0]["replayed"] == 0 and same["changed"] == 0
    assert not same["with_inputs"] and not same["with_mutants"]

    # without the proposed inputs, the mutants of is_even(4) (is_even(-4), ...) break the tie
    code, stdout, _ = _cli(str(out), "--no-inputs", capsys=capsys)
    assert code == 0
    [row] = json.loads((out / "replay-no-inputs.json").read_text())["rows"]
    assert row["replayed"] == 1 and "mutated inputs (tie-break)" in row["note"]


def test_replay_user_errors_are_one_line(
    tiny_dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _cli(str(tmp_path / "nowhere"), capsys=capsys)
    assert code == 2 and "holds no run.json" in err and "Traceback" not in err
    old = tmp_path / "old"
    _store(old, tiny_dataset, evidence=False)
    code, _, err = _cli(str(old), capsys=capsys)
    assert code == 2 and "keeps the drafts it chose from" in err
    assert not (old / "replay.json").exists()
    (old / "run.json").write_text("{")
    code, _, err = _cli(str(old), capsys=capsys)
    assert code == 2 and "is not a run description" in err


def test_summary_counts_gains_losses_and_changes() -> None:
    rows = [
        ReplayedTask(task_id="a", drafts_passed=[False, True], stored=0, replayed=1, note=""),
        ReplayedTask(task_id="b", drafts_passed=[True, False], stored=0, replayed=1, note=""),
        ReplayedTask(task_id="c", drafts_passed=[True, True], stored=1, replayed=1, note=""),
        ReplayedTask(task_id="d", drafts_passed=[False, False], stored=None, replayed=0, note=""),
    ]
    summary = summarize(rows, with_inputs=True)
    assert (summary.any_draft_passed, summary.stored_passed, summary.replayed_passed) == (3, 2, 2)
    assert summary.gained == ["a"] and summary.lost == ["b"] and summary.changed == 3
