"""End to end with a scripted FakeModel: single, pipeline, errors and resume."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from codeproof.core.config import Settings
from codeproof.core.errors import ContextLengthError, InputError, ProviderUnreachableError
from codeproof.core.types import TestCase, TestReport
from codeproof.evaluation.datasets import Task
from codeproof.evaluation.pipeline import _failures
from codeproof.evaluation.results import Mode
from codeproof.evaluation.runner import EvalOptions, Evaluator
from codeproof.evaluation.scoring import Scorer
from codeproof.llm.base import ChatSettings, Message
from codeproof.llm.fake import FakeModel, Sampled, said
from codeproof.sandbox.base import Limits, SandboxSession
from codeproof.toolchains.client import open_toolchain

Rule = tuple[Callable[[list[Message]], bool], object]


def _asks(role: str, name: str) -> Callable[[list[Message]], bool]:
    return lambda m: role in said(m) and f"{name}(" in m[-1].content


def _file(path: str, code: str, extra: str = "") -> str:
    return f"File: {path}\n```python\n{code}```\n{extra}"


@pytest.mark.docker
def test_single_mode_scores_each_reply(
    tiny_tasks: list[Task], make_scorer: Callable[..., Scorer], tmp_path: Path
) -> None:
    whole = "```python\ndef add(a, b):\n    return a + b\n```"
    model = FakeModel(
        rules=[
            (lambda m: "def add" in m[-1].content, whole),
            (lambda m: "def is_even" in m[-1].content, "    return n % 2 == 1"),
        ]
    )
    options = EvalOptions(dataset="tiny", modes=("single",))
    seen: list[tuple[int, int]] = []
    summary = Evaluator(
        model, make_scorer(), None, options, tmp_path, lambda _, n, total: seen.append((n, total))
    ).run(tiny_tasks)
    assert sorted(seen) == [(1, 2), (2, 2)]
    rows = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    by_id = {r["task_id"]: r for r in rows}
    assert by_id["tiny/add"]["passed"] is True
    assert by_id["tiny/is_even"]["passed"] is False
    assert by_id["tiny/is_even"]["final_code"].endswith("    return n % 2 == 1\n")
    assert all(r["llm_calls"] == 1 and r["completion_tokens"] > 0 for r in rows)
    assert summary.modes["single"].pass_at_1 == 0.5
    assert (tmp_path / "report.html").is_file()
    for call in model.calls:  # the hidden test is never shown
        assert "check(" not in " ".join(m.content for m in call.messages)

    # --resume: nothing left to do, so the model is not asked again
    idle = FakeModel()
    resumed = EvalOptions(dataset="tiny", modes=("single",), resume=True)
    again = Evaluator(idle, make_scorer(), None, resumed, tmp_path).run(tiny_tasks)
    assert idle.calls == [] and again.modes["single"].pass_at_1 == 0.5
    with pytest.raises(InputError, match="--resume"):
        Evaluator(idle, make_scorer(), None, options, tmp_path).run(tiny_tasks)


@pytest.mark.docker
def test_a_failing_task_is_recorded_and_the_run_goes_on(
    tiny_tasks: list[Task], make_scorer: Callable[..., Scorer], tmp_path: Path
) -> None:
    def too_long(_: list[Message]) -> str:
        raise ContextLengthError("prompt too long", provider="fake")

    model = FakeModel(
        rules=[
            (lambda m: "def add" in m[-1].content, too_long),
            (lambda m: "def is_even" in m[-1].content, "    return n % 2 == 0"),
        ]
    )
    options = EvalOptions(dataset="tiny", modes=("single",))
    summary = Evaluator(model, make_scorer(), None, options, tmp_path).run(tiny_tasks)
    assert summary.modes["single"].errors == 1
    assert summary.modes["single"].passed == 1


@pytest.mark.slow
@pytest.mark.docker
def test_pipeline_mode_runs_the_engine_on_each_task(
    tiny_tasks: list[Task],
    make_scorer: Callable[..., Scorer],
    docker_ready: Settings,
    tmp_path: Path,
) -> None:
    add_tests = "from add import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
    even_tests = "from is_even import is_even\n\n\ndef test_even():\n    assert is_even(4)\n"
    add = "def add(a, b):\n    return a + b\n"
    crash = "def is_even(n):\n    return n.is_even()\n"  # an error a repair can fix
    right = "def is_even(n):\n    return n % 2 == 0\n"
    rules: list[Rule] = [
        (_asks("You are a tester", "is_even"), "```python\nis_even(-2)\nis_even(4)\n```"),
        (_asks("You are a tester", "add"), "no calls today"),
        (lambda m: "You plan how" in m[0].content, {"steps": ["Write it."]}),
        (_asks("cannot see", "add"), _file("test_add.py", add_tests)),
        (_asks("cannot see", "is_even"), _file("test_is_even.py", even_tests)),
        (_asks("Write the module", "add"), _file("add.py", add)),
        (_asks("Write the module", "is_even"), _file("is_even.py", crash)),
        (_asks("Complete the code", "add"), f"```python\n{add}```"),
        (_asks("Complete the code", "is_even"), f"```python\n{crash}```"),
        (_asks("You fix", "is_even"), _file("is_even.py", right, "Summary: parity")),
    ]
    model = FakeModel(rules=rules)
    options = EvalOptions(
        dataset="tiny", modes=("pipeline",), max_attempts=3, candidates=3, probe_inputs=2
    )
    summary = Evaluator(
        model, make_scorer(), lambda lang: open_toolchain(docker_ready, lang), options, tmp_path
    ).run(tiny_tasks)
    rows = {
        r["task_id"]: r
        for r in map(json.loads, (tmp_path / "results.jsonl").read_text().splitlines())
    }
    add_row, even = rows["tiny/add"], rows["tiny/is_even"]
    # add: the first draft (the single mode's answer) meets the example and the tests
    # tests, one completion; the proof's rung of drafts to compare the green code with
    # (plan, probe inputs, the spec draft, a sampled completion)
    assert add_row["attempts"] == 1 and add_row["llm_calls"] == 6
    assert add_row["history"] == [add_row["history"][0]]
    assert add_row["history"][0].startswith("chose candidate 0 of 1")
    assert add_row["drafts_passed"] == [True] * 3 and add_row["chosen_draft"] == 0
    # is_even: the first draft crashes; a rung of two more drafts crashes alike; a
    # crash is what a repair can fix
    assert even["attempts"] == 3 and even["passed"] and even["tests_green"]
    # reported green only on a moderately strong proof (one designed check is little)
    assert even["own_tests_green"] == (even["proof_strength"] in ("strong", "moderate"))
    # tests, the completion; plan, probe inputs, the spec draft, a sampled completion; repair
    assert even["llm_calls"] == 7
    assert even["history"][1].startswith("chose candidate 0 of 3")
    assert "outputs on 2 inputs (1 from the tests, 1 proposed)" in even["history"][1]
    assert even["history"][-1] == "parity"
    assert json.loads((tmp_path / "run.json").read_text())["probe_inputs"] == 2
    # what the choice was made from is kept for `codeproof eval-replay`
    assert [d["is_even.py"].endswith(crash) for d in even["draft_files"]] == [True] * 3
    assert even["designed_tests"] == {"test_is_even.py": even_tests}
    assert even["probe_inputs"] == ["is_even(-2)", "is_even(4)"]
    greens = [add_row["own_tests_green"], even["own_tests_green"]]
    assert summary.modes["pipeline"].success_rate == sum(greens) / 2
    assert summary.modes["pipeline"].attempts_histogram == {"1": 1, "3": 1}
    # every draft is scored on the hidden tests: is_even's were all wrong (the repair
    # fixed it), so a perfect choice alone would have solved 1 of 2
    assert even["drafts_passed"] == [False, False, False]
    # the tests the code was held to, and what still failed, are kept for analysis
    own_tests = even["own_tests"]
    assert own_tests["test_is_even.py"] == even_tests and "test_is_even_examples.py" in own_tests
    assert even["own_failures"] == []
    pipeline = summary.modes["pipeline"]
    assert (pipeline.drafts_scored, pipeline.any_draft_passed) == (2, 1)
    assert pipeline.chosen_draft_passed == 1
    assert "some draft passes (tasks)" in (tmp_path / "report.md").read_text()
    for call in model.calls:
        assert "check(" not in " ".join(m.content for m in call.messages)


def test_an_unreachable_provider_stops_the_run(tiny_tasks: list[Task], tmp_path: Path) -> None:
    def down(_: list[Message]) -> str:
        raise ProviderUnreachableError("connection refused", provider="fake")

    def no_sandbox(language: str, limits: Limits) -> AbstractContextManager[SandboxSession]:
        raise AssertionError("nothing is scored when the provider is down")

    model = FakeModel(rules=[(lambda m: True, down)], slots=1)
    options = EvalOptions(dataset="tiny", modes=("single",))
    with pytest.raises(ProviderUnreachableError):
        Evaluator(model, Scorer(no_sandbox), None, options, tmp_path).run(tiny_tasks)
    assert len(model.calls) == 1  # the second task was never started
    assert not (tmp_path / "results.jsonl").exists()


def test_the_final_failures_name_each_failing_test_or_the_run_message() -> None:
    report = TestReport(
        total=3,
        passed=1,
        failed=1,
        errors=1,
        tests=[
            TestCase(name="t.ok", outcome="passed"),
            TestCase(name="t.bad", outcome="failed", message="\nassert 2 == 3\nmore"),
            TestCase(name="t.boom", outcome="error", message="  "),
        ],
    )
    assert _failures(report) == ["t.bad: assert 2 == 3", "t.boom: error"]
    compile_failure = TestReport(message="compilation failed: Solution.java:3: ';' expected")
    assert _failures(compile_failure) == ["compilation failed: Solution.java:3: ';' expected"]
    assert (
        _failures(TestReport(total=1, passed=1, tests=[TestCase(name="t", outcome="passed")])) == []
    )


@pytest.mark.docker
def test_drafts_are_drawn_until_one_meets_the_stated_example(
    tiny_tasks: list[Task],
    make_scorer: Callable[..., Scorer],
    docker_ready: Settings,
    tmp_path: Path,
) -> None:
    wrong, right = (f"def is_even(n):\n    return {e}\n" for e in ("n % 2 == 1", "n % 2 == 0"))

    def complete(_: list[Message], settings: ChatSettings) -> str:
        return f"```python\n{right if settings.seed == 1 else wrong}```"  # the greedy one errs

    even_tests = "from is_even import is_even\n\n\ndef test_zero():\n    assert is_even(0)\n"
    rules: list[Rule] = [
        (_asks("You are a tester", "is_even"), "no calls today"),
        (lambda m: "You plan how" in m[0].content, {"steps": ["Write it."]}),
        (_asks("cannot see", "is_even"), _file("test_is_even.py", even_tests)),
        (_asks("Write the module", "is_even"), _file("is_even.py", wrong)),
        (_asks("Complete the code", "is_even"), Sampled(complete)),
    ]
    model = FakeModel(rules=rules)
    options = EvalOptions(dataset="tiny", modes=("pipeline",), max_attempts=1, candidates=5)
    Evaluator(
        model, make_scorer(), lambda lang: open_toolchain(docker_ready, lang), options, tmp_path
    ).run(tiny_tasks[1:])
    row = json.loads((tmp_path / "results.jsonl").read_text())
    # the first draft returns False for the prompt's `is_even(4) -> True`; one rung of a
    # spec draft and a sampled completion holds a draft that meets it: the ladder stops
    assert row["history"][0].startswith("chose candidate 0 of 1")
    assert row["history"][1].startswith("chose candidate 2 of 3")
    assert row["passed"] and row["tests_green"] and row["chosen_draft"] == 2
    # one designed check and the stated example: too few distinct checks to report green
    assert not row["own_tests_green"] and row["proof_strength"] == "weak"
    assert row["drafts_passed"] == [False, False, True]
    assert len(row["draft_files"]) == 3


@pytest.mark.docker
def test_no_drafts_are_drawn_when_the_first_meets_the_examples(
    tiny_tasks: list[Task],
    make_scorer: Callable[..., Scorer],
    docker_ready: Settings,
    tmp_path: Path,
) -> None:
    right = "def is_even(n):\n    return n % 2 == 0\n"
    rules: list[Rule] = [
        (_asks("You are a tester", "is_even"), "no calls today"),
        (lambda m: "You plan how" in m[0].content, {"steps": ["Write it."]}),
        (_asks("cannot see", "is_even"), "no tests today"),
        (_asks("Write the module", "is_even"), _file("is_even.py", right)),
        (_asks("Complete the code", "is_even"), f"```python\n{right}```"),
    ]
    model = FakeModel(rules=rules)
    options = EvalOptions(dataset="tiny", modes=("pipeline",), candidates=7)
    Evaluator(
        model, make_scorer(), lambda lang: open_toolchain(docker_ready, lang), options, tmp_path
    ).run(tiny_tasks[1:])
    row = json.loads((tmp_path / "results.jsonl").read_text())
    # the choice drew no draft; the proof drew one rung (a spec draft, a sampled
    # completion) to compare the green code's outputs with
    assert len(row["history"]) == 1 and row["history"][0].startswith("chose candidate 0 of 1")
    assert len(row["draft_files"]) == 3 and row["passed"] and row["tests_green"]
    assert (
        sum(
            "Complete the code" in c.messages[0].content + c.messages[-1].content
            for c in model.calls
        )
        == 2
    )


def test_interleave_runs_each_task_in_every_mode_before_the_next(
    tiny_tasks: list[Task], tmp_path: Path
) -> None:
    both: tuple[Mode, ...] = ("single", "pipeline")
    model = FakeModel([])
    by_mode = Evaluator(model, None, None, EvalOptions("tiny", both), tmp_path)  # type: ignore[arg-type]
    paired = Evaluator(
        model,
        None,
        None,
        EvalOptions("tiny", both, interleave=True),
        tmp_path,  # type: ignore[arg-type]
    )
    ids = [t.task_id for t in tiny_tasks]
    assert [(t.task_id, m) for t, m in by_mode._order(tiny_tasks)] == [
        (ids[0], "single"), (ids[1], "single"), (ids[0], "pipeline"), (ids[1], "pipeline")
    ]  # fmt: skip
    assert [(t.task_id, m) for t, m in paired._order(tiny_tasks)] == [
        (ids[0], "single"), (ids[0], "pipeline"), (ids[1], "single"), (ids[1], "pipeline")
    ]  # fmt: skip
