"""``codeproof new --json``, ``runs list|show|logs`` and ``resume`` through the real CLI
entry point (FakeModel in place of the provider, real toolchain)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from wf_world import BAD_1, BROKEN, GOOD, TESTS, World, fenced

from codeproof.cli import main
from codeproof.commands import workflow_run as new_command
from codeproof.core.errors import ProviderUnreachableError
from codeproof.llm.base import Message
from codeproof.llm.fake import FakeModel, said
from codeproof.workflow.store import RunStore

pytestmark = pytest.mark.docker


def cli(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["codeproof", *args])
    with pytest.raises(SystemExit) as caught:
        main()
    out, err = capsys.readouterr()
    code = caught.value.code
    return (code if isinstance(code, int) else 1), out, err


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, real_toolchains: Any) -> Path:
    monkeypatch.setenv("CODEPROOF_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CODEPROOF_SANDBOX__BACKEND", "docker")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(new_command, "started_toolchains", lambda settings: real_toolchains)
    return tmp_path / "home"


def use_model(monkeypatch: pytest.MonkeyPatch, model: FakeModel) -> None:
    monkeypatch.setattr(new_command, "get_chat_model", lambda settings: model)


def test_new_json_then_runs_commands(home, tmp_path, monkeypatch, capsys):
    world = World(code={"slugify": BROKEN}, repairs={"slugify": [GOOD]})
    use_model(monkeypatch, world.model())

    code, out, _ = cli(
        ["new", "a slugify function", "--yes", "--json", "--out", "proj"], monkeypatch, capsys
    )

    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    kinds = {line["event"] for line in lines}
    assert {"node_start", "node_end", "llm_call", "tool_call", "result"} <= kinds
    result = lines[-1]
    assert result["event"] == "result" and result["run"]["status"] == "done"
    assert result["modules"] == [
        {
            "name": "slugify",
            "status": "passed",
            "attempts": 2,
            "passed": 4,
            "total": 4,
            "findings": 0,
            "proof": "strong (100%)",  # the proof of its tests: every mutant told apart
            "failing": [],
            "assumed": [],
        }
    ]
    assert (tmp_path / "proj" / "slugify.py").read_text() == GOOD
    # the spec's example is the analyst's, not the user's: no generated example test
    assert not (tmp_path / "proj" / "test_slugify_examples.py").exists()
    run_id = result["run"]["id"]

    code, out, _ = cli(["runs", "list"], monkeypatch, capsys)
    assert code == 0 and run_id in out and "done" in out
    code, out, _ = cli(["runs", "show", run_id[:15], "--json"], monkeypatch, capsys)
    shown = json.loads(out)
    assert shown["modules"][0]["status"] == "passed" and shown["usage"]["calls"] > 0
    code, out, _ = cli(["runs", "logs", run_id, "--json"], monkeypatch, capsys)
    events = [json.loads(line) for line in out.splitlines()]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    code, out, _ = cli(["runs", "logs", run_id, "--kind", "llm_call"], monkeypatch, capsys)
    assert code == 0 and "paid" in out


def test_paused_run_exits_1_and_resume_finishes_it(home, tmp_path, monkeypatch, capsys):
    world = World()
    down = {"on": True}

    def tests(messages: list[Message]) -> str:
        if down["on"]:
            raise ProviderUnreachableError("connection refused", provider="fake")
        return fenced("test_slugify.py", TESTS)

    designer = (lambda m: "You write python tests" in said(m), tests)
    model = FakeModel(rules=[designer, *world.rules()])
    use_model(monkeypatch, model)

    code, _, err = cli(["new", "a slugify function", "--yes", "--out", "proj"], monkeypatch, capsys)

    assert code == 1
    line = " ".join(err.split())
    assert "paused:" in line and "connection refused; fix it, then `codeproof resume" in line
    run_id = line.split("run ", 1)[1].split(" ", 1)[0]
    code, out, _ = cli(["runs", "show", run_id], monkeypatch, capsys)
    assert "paused" in out

    down["on"] = False
    code, out, _ = cli(["resume", run_id, "--json"], monkeypatch, capsys)
    assert code == 0
    result = json.loads(out.splitlines()[-1])
    assert result["run"]["status"] == "done" and result["modules"][0]["status"] == "passed"
    assert (tmp_path / "proj" / "slugify.py").read_text() == GOOD
    code, _, err = cli(["resume", run_id], monkeypatch, capsys)
    assert code == 2 and "already done" in err


def test_resume_yes_answers_what_an_interactive_run_left_unanswered(
    home, tmp_path, monkeypatch, capsys
):
    world = World()
    use_model(monkeypatch, world.model())
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # nobody answers the JSON questions

    code, out, err = cli(
        ["new", "a slugify function", "--json", "--out", "proj"], monkeypatch, capsys
    )

    assert code == 1
    asked = [json.loads(line) for line in out.splitlines() if '"question"' in line]
    assert [q["kind"] for q in asked] == ["clarify"]
    line = " ".join(err.split())
    assert "paused: no answer to the clarify question" in line
    assert "resume with --yes" in line  # the way on without anyone answering
    run_id = line.split("run ", 1)[1].split(" ", 1)[0]
    # without a terminal the run cannot ask: the error names the flag that exists
    code, _, err = cli(["resume", run_id], monkeypatch, capsys)
    assert code == 2 and "pass --yes" in " ".join(err.split())

    code, out, _ = cli(["resume", run_id, "--yes", "--json"], monkeypatch, capsys)

    assert code == 0
    result = json.loads(out.splitlines()[-1])
    assert result["run"]["status"] == "done" and result["modules"][0]["status"] == "passed"
    assert (tmp_path / "proj" / "slugify.py").read_text() == GOOD
    with RunStore(home / "runs") as store:
        options = store.get_run(run_id).options
    assert options["auto"] is True and options["on_failure"] == "continue"


def test_new_recombines_the_drafts_functions_in_the_sandbox(home, tmp_path, monkeypatch, capsys):
    # the first draft doubles right and shouts wrong, the spec draft the other way round:
    # the project ships the first draft with the spec draft's shout (py-durations)
    from test_recombining import FIRST, REQUEST, calc_world

    world = calc_world(FIRST)
    use_model(monkeypatch, world.model())

    code, out, _ = cli(
        ["new", REQUEST, "--yes", "--json", "--candidates", "3", "--out", "proj"],
        monkeypatch,
        capsys,
    )

    assert code == 0
    shipped = (tmp_path / "proj" / "calc.py").read_text()
    assert "return x * 2" in shipped and "return f'{x}!'" in shipped
    result = json.loads(out.splitlines()[-1])
    assert result["run"]["status"] == "done"
    assert [m["status"] for m in result["modules"]] == ["passed"]


def test_a_failed_module_names_the_tests_it_fails(home, tmp_path, monkeypatch, capsys):
    world = World(code={"slugify": BAD_1}, repairs={"slugify": [BAD_1] * 5})
    use_model(monkeypatch, world.model())

    code, out, err = cli(
        ["new", "a slugify function", "--yes", "--out", "proj"], monkeypatch, capsys
    )

    assert code == 1  # the run is done, the project written, and the module failed
    shown = " ".join((out + err).split())
    assert "│ slugify │ failed │" in shown
    assert "slugify fails 3 kept test(s): test_slugify.test_spaces: " in shown
    assert "AssertionError: assert ' a ' == 'a' test_slugify.test_runs: " in shown
    report = (tmp_path / "proj" / "codeproof-report.md").read_text()
    failing = report.split("## Failing tests", 1)[1].split("\n## ", 1)[0]
    assert "- `test_slugify.test_runs`: " in failing and "test_lower" not in failing
    data = json.loads((tmp_path / "proj" / "codeproof-report.json").read_text())
    assert [f["name"] for f in data["modules"][0]["failing"]] == [
        "test_slugify.test_spaces",
        "test_slugify.test_strip",
        "test_slugify.test_runs",
    ]
