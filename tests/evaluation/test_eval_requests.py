"""The request benchmark's runner: one call (scripted model) and ``codeproof new`` (a
stand-in subprocess), scored by the real toolchain servers in the Docker sandbox."""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from codeproof.core.config import Settings
from codeproof.core.errors import InputError
from codeproof.evaluation.request_cases import (
    find_requests_dir,
    load_requests,
    reference_files,
)
from codeproof.evaluation.request_modes import PipelineLauncher
from codeproof.evaluation.request_report import write_reports
from codeproof.evaluation.requests import (
    RequestEvalOptions,
    RequestEvaluator,
    RequestResult,
    RequestRunInfo,
)
from codeproof.llm.base import Message
from codeproof.llm.fake import FakeModel
from codeproof.llm.local import LocalChatModel
from codeproof.toolchains.api import ToolchainAPI
from codeproof.toolchains.client import open_toolchain

ROOT = find_requests_dir()
STANDIN = Path(__file__).with_name("standin_new.py")
INFO = RequestRunInfo(provider="fake", model="m", requests_dir=str(ROOT))


def _blocks(files: dict[str, str], tag: str) -> str:
    return "Here you go.\n\n" + "\n".join(
        f"File: {path}\n```{tag}\n{code}```\n" for path, code in files.items()
    )


def _asks_for(name: str) -> Callable[[list[Message]], bool]:
    return lambda messages: name in messages[-1].content


def _rows(out: Path) -> dict[tuple[str, str], dict[str, object]]:
    lines = (out / "results.jsonl").read_text().splitlines()
    return {(r["id"], r["mode"]): r for r in map(json.loads, lines)}


def _evaluator(
    model: FakeModel | None,
    settings: Settings,
    out: Path,
    launcher: PipelineLauncher | None = None,
    **options: object,
) -> RequestEvaluator:
    return RequestEvaluator(
        model,
        lambda language: open_toolchain(settings, language),
        launcher or PipelineLauncher(60),
        RequestEvalOptions(**options),  # type: ignore[arg-type]
        out,
    )


@pytest.mark.docker
def test_one_call_mode_writes_the_reply_and_scores_it_on_the_hidden_tests(
    docker_ready: Settings, tmp_path: Path
) -> None:
    cases = load_requests(ROOT, ["py-roman", "js-csv", "js-slugify"])
    broken_csv = {
        "csv.js": "module.exports = { parseCsv: (t) => t.split('\\n').map((l) => l.split(',')),"
        " toCsv: (rows) => rows.map((r) => r.join(',')).join('\\n') };\n",
        "csv.test.js": "this is not JavaScript\n",  # its own test: left out of the scoring
    }
    model = FakeModel(
        rules=[
            (_asks_for("roman.py"), _blocks(reference_files(ROOT, "py-roman"), "python")),
            (_asks_for("csv.js"), _blocks(broken_csv, "javascript")),
            (_asks_for("slugify.js"), "```javascript\nmodule.exports = {};\n```\n"),
        ]
    )
    results = _evaluator(model, docker_ready, tmp_path, modes=("one-call",)).run(cases, INFO)
    by_id = {r.id: r for r in results}
    roman, csv, slug = by_id["py-roman"], by_id["js-csv"], by_id["js-slugify"]
    assert (roman.status, roman.passed, roman.checks, roman.met) == ("met", 13, 13, True)
    assert roman.files == ["roman.py"] and roman.stated_files_missing == []
    assert csv.status == "partial" and 0 < csv.passed < csv.checks == 12
    assert csv.files == ["csv.js"] and any("unterminated" in f for f in csv.failures)
    assert (slug.status, slug.unnamed_blocks, slug.passed) == ("no code", 1, 0)
    assert slug.stated_files_missing == ["slugify.js"]
    assert all(r.llm_calls == 1 and r.completion_tokens > 0 for r in results)
    assert (tmp_path / "py-roman" / "one-call" / "project" / "roman.py").is_file()
    hidden = [text for case in cases for text in case.acceptance.values()]
    for call in model.calls:  # the acceptance tests never reach the model
        shown = " ".join(m.content for m in call.messages)
        assert not any(text[:200] in shown for text in hidden)
        assert "acceptance" not in shown.lower()
    assert set(_rows(tmp_path)) == {(c.id, "one-call") for c in cases}

    summary = write_reports(tmp_path, "fake/m", results)
    one = summary.modes["one-call"]
    assert (one.met, one.requests, one.checks) == (1, 3, 13 + 12 + 10)
    assert one.statuses == {"met": 1, "no code": 1, "partial": 1}
    assert summary.comparison is None
    assert "| py-roman | python | 13/13 **met** |" in (tmp_path / "report.md").read_text()

    idle = FakeModel()  # --resume: nothing left, so no model call
    again = _evaluator(idle, docker_ready, tmp_path, modes=("one-call",), resume=True)
    assert [r.passed for r in again.run(cases, INFO)] == [r.passed for r in results]
    assert idle.calls == []
    with pytest.raises(InputError, match="--resume"):
        _evaluator(idle, docker_ready, tmp_path, modes=("one-call",)).run(cases, INFO)


def _standin(files: Path, *extra: str) -> tuple[str, ...]:
    return (sys.executable, str(STANDIN), "--files", str(files), *extra)


def _reference_dir(request_id: str) -> Path:
    return ROOT / request_id / "reference"


@pytest.mark.docker
def test_pipeline_mode_runs_codeproof_new_and_records_its_own_verdict(
    docker_ready: Settings, tmp_path: Path
) -> None:
    [case] = load_requests(ROOT, ["py-bill-split"])
    launcher = PipelineLauncher(
        120, model="some-model", command=_standin(_reference_dir("py-bill-split"))
    )
    [result] = _evaluator(None, docker_ready, tmp_path, launcher, modes=("pipeline",)).run(
        [case], INFO
    )
    assert (result.status, result.passed, result.checks) == ("met", 14, 14)
    assert result.files == ["argv.json", "codeproof-report.json", "money.py", "split.py"]
    assert (result.own_status, result.own_green, result.exit_code) == ("done", True, 0)
    assert [m.name for m in result.own_modules or []] == ["money", "split"]
    # replayed calls are free; cached ones count as calls and hits
    assert (result.llm_calls, result.cache_hits) == (2, 1)
    assert (result.prompt_tokens, result.completion_tokens) == (300, 100)
    project = tmp_path / "py-bill-split" / "pipeline" / "project"
    argv = json.loads((project / "argv.json").read_text())
    assert argv[argv.index("new") :] == [
        "new", case.text, "--yes", "--json", "--out", str(project), "--model", "some-model",
    ]  # fmt: skip
    events = (tmp_path / "py-bill-split" / "pipeline" / "events.jsonl").read_text()
    assert events.count('"llm_call"') == 3 and '"result"' in events


@pytest.mark.docker
def test_a_green_pipeline_verdict_on_wrong_code_is_shown_as_wrong(
    docker_ready: Settings, tmp_path: Path
) -> None:
    [case] = load_requests(ROOT, ["py-roman"])
    wrong = tmp_path / "wrong"
    wrong.mkdir()
    (wrong / "roman.py").write_text(
        "def to_roman(n):\n    return 'I' * n\n\n\ndef from_roman(s):\n    return len(s)\n"
    )
    launcher = PipelineLauncher(120, command=_standin(wrong))
    out = tmp_path / "out"
    [result] = _evaluator(None, docker_ready, out, launcher, modes=("pipeline",)).run([case], INFO)
    assert result.own_green is True and not result.met and 0 < result.passed < 13
    summary = write_reports(out, "fake/m", [result])
    assert summary.modes["pipeline"].own_green_not_met == 1
    assert "done, green (wrong)" in (out / "report.md").read_text()


@pytest.mark.docker
@pytest.mark.parametrize(
    "ctrl_c", [signal.default_int_handler, signal.SIG_IGN], ids=["default", "ignored"]
)
def test_a_pipeline_over_its_time_limit_is_interrupted_and_scored_as_such(
    docker_ready: Settings, tmp_path: Path, ctrl_c: object
) -> None:
    # SIG_IGN: the harness started as ``cmd &`` in a script, whose children inherit an
    # ignored Ctrl-C; the run must still get it (not be killed after the grace)
    [case] = load_requests(ROOT, ["py-roman"])
    launcher = PipelineLauncher(2, command=_standin(_reference_dir("py-roman"), "--sleep", "600"))
    before = signal.signal(signal.SIGINT, ctrl_c)  # type: ignore[arg-type]
    try:
        [result] = _evaluator(None, docker_ready, tmp_path, launcher, modes=("pipeline",)).run(
            [case], INFO
        )
    finally:
        signal.signal(signal.SIGINT, before)
    assert (result.status, result.own_status, result.passed) == ("timeout", "timeout", 0)
    assert result.exit_code == 130 and result.wall_s < 60  # Ctrl-C, not the kill
    assert result.llm_calls == 1 and result.prompt_tokens == 100  # counted until stopped
    stderr = (tmp_path / "py-roman" / "pipeline" / "stderr.log").read_text()
    assert "paused" in stderr


def _result(rid: str, mode: str, passed: int, checks: int = 10, **extra: object) -> RequestResult:
    return RequestResult.model_validate(
        {
            "id": rid, "mode": mode, "language": "python", "checks": checks,
            "passed": passed, "met": passed == checks,
            "status": "met" if passed == checks else "partial", **extra,
        }
    )  # fmt: skip


def test_the_paired_comparison(tmp_path: Path) -> None:
    results = [
        _result("a", "one-call", 10, wall_s=2, prompt_tokens=100),
        _result("a", "pipeline", 10, wall_s=300, own_green=True, own_status="done"),
        _result("b", "one-call", 5),
        _result("b", "pipeline", 10, own_green=False, own_status="failed"),
        _result("c", "one-call", 0),
        _result("c", "pipeline", 4, own_green=True, own_status="done"),
        _result("d", "one-call", 10),  # no pipeline result: not paired
    ]
    summary = write_reports(tmp_path, "t", results)
    c = summary.comparison
    assert c is not None and c.paired_requests == 3
    assert (c.one_call_met, c.pipeline_met) == (1, 2)
    assert c.only_pipeline_met == ["b"] and c.only_one_call_met == []
    assert c.met_difference_points == pytest.approx(100 / 3)
    assert c.score_difference_points == pytest.approx(100 * (0.5 + 0.4) / 3)
    assert c.mcnemar_p_value == 1.0
    pipe, one = summary.modes["pipeline"], summary.modes["one-call"]
    assert (pipe.own_green, pipe.own_green_not_met, pipe.own_not_green_met) == (2, 1, 1)
    assert one.requests == 4 and one.own_green is None
    assert one.check_rate == pytest.approx(25 / 40)
    report = (tmp_path / "report.md").read_text()
    assert "| c | python | 0/10 partial | 4/10 partial | done, green (wrong)" in report
    assert json.loads((tmp_path / "summary.json").read_text())["comparison"]["paired_requests"] == 3


def test_a_resumed_run_must_use_the_same_model(tmp_path: Path) -> None:
    def evaluator(resume: bool) -> RequestEvaluator:
        options = RequestEvalOptions(modes=("one-call",), resume=resume)
        return RequestEvaluator(FakeModel(), _no_toolchain, PipelineLauncher(1), options, tmp_path)

    evaluator(False).run([], INFO)
    assert json.loads((tmp_path / "run.json").read_text())["model"] == "m"
    other = INFO.model_copy(update={"model": "other"})
    with pytest.raises(InputError, match="model 'm'"):
        evaluator(True).run([], other)


def _no_toolchain(language: str) -> AbstractContextManager[ToolchainAPI]:
    raise AssertionError(f"no toolchain expected ({language})")


def test_load_requests_names_unknown_ids_and_broken_metadata(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="unknown request id") as info:
        load_requests(ROOT, ["py-roman", "nope"])
    assert "py-roman" in (info.value.hint or "")
    broken = tmp_path / "x"
    broken.mkdir()
    (broken / "meta.json").write_text('{"id": "x", "language": "cobol"}')
    (broken / "request.md").write_text("do it")
    with pytest.raises(InputError, match="not a valid request description"):
        load_requests(tmp_path)


def test_the_one_call_prompt_is_the_request_and_the_reply_gives_the_files() -> None:
    from codeproof.agents.programmer import whole_messages
    from codeproof.languages.fences import reply_files

    [case] = load_requests(ROOT, ["js-cart"])
    messages = whole_messages(case.text)
    assert messages[-1] == Message(role="user", content=case.text)
    reply = (
        "File: pricing.js\n```js\nconst a = 1;\n```\n"
        "```javascript\n// cart.js\nclass Cart {}\n```\n"
        "```js\nconsole.log('usage');\n```\n"
    )
    files, unnamed = reply_files(reply)
    assert files == {"pricing.js": "const a = 1;\n", "cart.js": "// cart.js\nclass Cart {}\n"}
    assert unnamed == 1


def test_cli_rejects_an_unknown_mode_and_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from codeproof.cli import main

    for args, message in (
        (["--modes", "one-call,best"], "unknown mode(s): best"),
        (["--ids", "py-roman,nope"], "unknown request id(s): nope"),
    ):
        with pytest.MonkeyPatch.context() as patch, pytest.raises(SystemExit) as exited:
            patch.setattr(
                sys, "argv", ["codeproof", "eval-requests", "--out", str(tmp_path / "o"), *args]
            )
            main()
        err = capsys.readouterr().err
        assert exited.value.code == 2 and message in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


@pytest.mark.real_model
@pytest.mark.slow
@pytest.mark.docker
@pytest.mark.timeout(1200)  # seconds on an idle machine; minutes when the cores are shared
@pytest.mark.usefixtures("allow_model")
def test_one_call_with_the_small_model(
    small_local_model: LocalChatModel, docker_ready: Settings, tmp_path: Path
) -> None:
    [case] = load_requests(ROOT, ["py-roman"])
    evaluator = RequestEvaluator(
        small_local_model,
        lambda language: open_toolchain(docker_ready, language),
        PipelineLauncher(60),
        RequestEvalOptions(modes=("one-call",), max_tokens=256),
        tmp_path,
    )
    [result] = evaluator.run([case], INFO)
    assert result.llm_calls == 1 and result.completion_tokens > 0 and result.wall_s > 0
    assert result.checks == 13 and result.files + [""] * result.unnamed_blocks  # some code
    project = tmp_path / "py-roman" / "one-call" / "project"
    written = {p.relative_to(project).as_posix() for p in project.rglob("*") if p.is_file()}
    assert set(result.files) <= written  # the reply's own tests are not scored
    if result.files and "roman.py" in result.files:  # it was scored in the sandbox
        assert result.status in ("met", "partial", "failed")
        assert result.passed == 13 or result.failures
