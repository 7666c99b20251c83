"""`codeproof eval-pair`: two runs joined into one paired comparison, and its user errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from codeproof.cli import main
from codeproof.core.errors import InputError
from codeproof.evaluation import pairing
from codeproof.evaluation.pairing import pair_runs
from codeproof.evaluation.results import Mode, ResultStore, RunInfo, TaskResult


def _cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.MonkeyPatch.context() as patch, pytest.raises(SystemExit) as exited:
        patch.setattr(sys, "argv", ["codeproof", "eval-pair", *args])
        main()
    captured = capsys.readouterr()
    return int(exited.value.code or 0), captured.out, captured.err


def _run(
    out: Path,
    mode: Mode,
    passed: dict[str, bool],
    *,
    dataset: str = "humaneval",
    model: str = "m",
    order: list[str] | None = None,
) -> Path:
    info = RunInfo(
        dataset=dataset, provider="local", model=model, modes=[mode], limit=None,
        sample_seed=1, max_attempts=5, task_ids=order or list(passed),
    )  # fmt: skip
    store = ResultStore(out)
    store.prepare(info, resume=False)
    for task_id, ok in passed.items():
        status = "passed" if ok else "failed"
        green = ok if mode == "pipeline" else None
        store.append(TaskResult(task_id=task_id, mode=mode, language="python", passed=ok,
                                status=status, prompt_tokens=10, llm_calls=1,
                                own_tests_green=green))  # fmt: skip
    return out


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    single = _run(tmp_path / "single", "single", {"t/0": True, "t/1": False, "t/2": False})
    # the pipeline ran in another order, finished two of the single run's tasks and one more
    pipeline = _run(
        tmp_path / "pipe",
        "pipeline",
        {"t/2": True, "t/0": True, "t/9": True},
        order=["t/2", "t/0", "t/9", "t/1"],
    )
    return single, pipeline


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_pairs_the_tasks_both_finished_in_the_pipeline_order(
    runs: tuple[Path, Path], tmp_path: Path
) -> None:
    out = tmp_path / "paired"
    paired = pair_runs(*runs, out)

    rows = _lines(out / "results.jsonl")
    assert [(r["task_id"], r["mode"]) for r in rows] == [
        ("t/2", "single"), ("t/0", "single"), ("t/2", "pipeline"), ("t/0", "pipeline"),
    ]  # fmt: skip
    assert paired.unpaired == 1  # t/9 has no single-shot result
    info = json.loads((out / "run.json").read_text())
    assert info["modes"] == ["single", "pipeline"]
    assert info["task_ids"] == ["t/2", "t/0"]
    assert info["paired_from"] == {"single": "local/m", "pipeline": "local/m"}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["comparison"]["paired_tasks"] == 2
    assert summary["comparison"]["difference_points"] == 50.0
    assert summary["comparison"]["only_pipeline_passed"] == 1
    assert summary["modes"]["single"]["tasks"] == 2
    report = (out / "report.md").read_text()
    assert "Paired from two runs" in report
    assert (out / "report.html").is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging left


def test_runs_of_two_models_name_both_in_the_report(tmp_path: Path) -> None:
    single = _run(tmp_path / "s", "single", {"t/0": False}, model="big")
    pipeline = _run(tmp_path / "p", "pipeline", {"t/0": True}, model="small")

    pair_runs(single, pipeline, tmp_path / "out")

    title = (tmp_path / "out" / "report.md").read_text().splitlines()[0]
    assert title == "# Evaluation: humaneval, single with local/big, pipeline with local/small"


def test_pairing_again_replaces_an_earlier_pairing(runs: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "paired"
    pair_runs(*runs, out)
    single, pipeline = runs
    ResultStore(pipeline).append(
        TaskResult(task_id="t/1", mode="pipeline", language="python", passed=True, status="passed")
    )

    paired = pair_runs(single, pipeline, out)

    assert paired.summary.comparison is not None
    assert paired.summary.comparison.paired_tasks == 3
    assert len(_lines(out / "results.jsonl")) == 6


def test_a_dataset_file_is_known_by_its_name(tmp_path: Path) -> None:
    single = _run(tmp_path / "s", "single", {"t/0": True}, dataset="data/tasks.jsonl")
    pipeline = _run(tmp_path / "p", "pipeline", {"t/0": True}, dataset="/abs/data/tasks.jsonl")

    assert pair_runs(single, pipeline, tmp_path / "out").summary.comparison is not None


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("datasets", "the runs are on different datasets (humaneval and humaneval-x-js)"),
        ("no single", "holds no single-shot result"),
        ("no pipeline", "holds no pipeline result"),
        ("no common task", "no task has both a single-shot result"),
        ("out is a run", "is one of the runs being paired"),
        ("out holds files", "already holds files that are not an earlier pairing"),
        ("no run", "holds no run.json"),
    ],
)
def test_user_errors_say_what_is_wrong_and_write_nothing(
    case: str, message: str, runs: tuple[Path, Path], tmp_path: Path
) -> None:
    single, pipeline = runs
    out = tmp_path / "paired"
    if case == "datasets":
        pipeline = _run(tmp_path / "js", "pipeline", {"t/0": True}, dataset="humaneval-x-js")
    elif case == "no single":
        single = pipeline
    elif case == "no pipeline":
        pipeline = single
    elif case == "no common task":
        pipeline = _run(tmp_path / "other", "pipeline", {"t/5": True})
    elif case == "out is a run":
        out = single
    elif case == "out holds files":
        out.mkdir()
        (out / "notes.txt").write_text("mine")
    elif case == "no run":
        single = tmp_path / "missing"
    before = sorted(p.name for p in tmp_path.rglob("*"))

    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        pair_runs(single, pipeline, out)

    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_a_failed_write_keeps_the_earlier_pairing(
    runs: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "paired"
    pair_runs(*runs, out)
    before = (out / "results.jsonl").read_text()

    def broken(*_: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(pairing, "write_reports", broken)
    with pytest.raises(OSError, match="disk full"):
        pair_runs(*runs, out)

    assert (out / "results.jsonl").read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["paired", "pipe", "single"]


def test_eval_resume_refuses_a_pairing(runs: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "paired"
    paired = pair_runs(*runs, out)

    with pytest.raises(InputError, match="holds a pairing of two runs"):
        ResultStore(out).prepare(paired.info, resume=True)


def test_cli_prints_the_difference(
    runs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "paired"
    code, stdout, _ = _cli(str(runs[0]), str(runs[1]), "--out", str(out), capsys=capsys)

    assert code == 0
    text = " ".join(stdout.split())
    assert "2 task(s) paired: single-shot 50.0%, pipeline 100.0%, difference +50.0 points" in text
    assert "1 pipeline result(s) have no single-shot result" in text
    assert "pipeline green precision 100.0% (correct among 2 green), green recall 100.0%" in text
    report = (out / "report.md").read_text()
    assert "| green precision (correct among green) | – | 1.000 |" in report


def test_cli_user_error_is_one_line_without_traceback(
    runs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, stdout, stderr = _cli(str(runs[0]), str(runs[0]), "--out", str(tmp_path / "o"),
                                capsys=capsys)  # fmt: skip

    assert code != 0
    assert "Traceback" not in stderr + stdout
    assert "holds no pipeline result" in stderr
    assert not (tmp_path / "o").exists()
