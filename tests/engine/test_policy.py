"""The engine's next step after an execution: where more model calls can pay."""

from __future__ import annotations

import pytest

from codeproof.choosing.ladder import blind as _blind
from codeproof.choosing.ladder import unanimous as _unanimous
from codeproof.core.types import TestCase, TestReport
from codeproof.engine.context import EngineOptions
from codeproof.engine.policy import next_step
from codeproof.engine.state import Draft, Work
from codeproof.languages import registry

PYTHON = registry.language_for("python")


def _report(*outcomes: str) -> TestReport:
    tests = [TestCase(name=f"t.test_{i}", outcome=o) for i, o in enumerate(outcomes)]
    passed = sum(o == "passed" for o in outcomes)
    failed = sum(o == "failed" for o in outcomes)
    return TestReport(total=len(tests), passed=passed, failed=failed, tests=tests)


def _failing_work(drafts: int, *, unanimous: bool, missed: int) -> Work:
    report = _report("passed", "failed")
    report.tests[1].message = "AssertionError: assert '' is None"
    return Work(
        attempt=1,
        tests={"test_t.py": "..."},
        report=report,
        verdict="failed",
        drafts=[Draft(files={"t.py": ""}, source="direct", index=i) for i in range(drafts)],
        unanimous=unanimous,
        examples_missed=missed,
    )


@pytest.mark.parametrize(
    ("unanimous", "missed", "step"),
    [
        (False, 0, "draw"),  # the drafts split: another may settle it
        (True, 1, "draw"),  # all agree yet miss the user's example: the evidence is against
        (True, 0, "escalate"),  # all agree and meet every example: the tests are disputed
    ],
)
def test_drafts_are_drawn_only_while_they_can_change_the_choice(
    unanimous: bool, missed: int, step: str
) -> None:
    work = _failing_work(3, unanimous=unanimous, missed=missed)
    assert next_step(work, EngineOptions(), PYTHON) == step


def test_a_full_ladder_draws_no_more() -> None:
    work = _failing_work(7, unanimous=False, missed=1)
    assert next_step(work, EngineOptions(max_drafts=7), PYTHON) == "escalate"


def test_unanimous_needs_three_drafts_that_all_ran_alike() -> None:
    same = [_report("passed", "failed") for _ in range(3)]
    outputs: list[list[str] | None] = [["1", "2"], ["1", "2"], ["1", "2"]]
    assert _unanimous(same, outputs)
    assert not _unanimous(same[:2], outputs[:2])  # two agreeing drafts settle nothing
    assert not _unanimous(same, [["1", "2"], ["1", "3"], ["1", "2"]])  # an output differs
    assert not _unanimous([*same[:2], _report("passed", "passed")], outputs)  # tests differ
    assert not _unanimous([*same[:2], TestReport()], outputs)  # one did not run
    assert not _unanimous(same, [*outputs[:2], None])  # one could not be probed
    bug: list[list[str] | None] = [["1", "!NameError"]] * 3
    assert _unanimous(same, bug) and not _unanimous(same, bug, {"NameError"})  # one bug


def test_code_that_compiles_with_every_test_set_aside_is_not_repaired() -> None:
    """java-lru-cache at db01955: every designed test was set aside and the right class
    went through two repairs with no failure to show the repairer."""
    untested = TestReport()  # an empty test file: nothing failed to compile or load
    work = _failing_work(7, unanimous=False, missed=0).model_copy(update={"report": untested})
    assert next_step(work, EngineOptions(max_drafts=7), PYTHON) == "escalate"
    fewer = work.model_copy(update={"drafts": work.drafts[:1]})
    assert next_step(fewer, EngineOptions(max_drafts=7), PYTHON) == "draw"  # drafts may differ
    uncompiled = TestReport(message="Foo.java:3: error: ';' expected", errors=1)
    broken = work.model_copy(update={"report": uncompiled})
    assert next_step(broken, EngineOptions(max_drafts=7), PYTHON) == "repair"


def test_no_draft_is_drawn_when_nothing_tells_the_drafts_apart() -> None:
    """java-business-calendar at a24819f: its one designed test compiled against no
    draft, and drafts 2 to 7 were drawn for four minutes, candidate 0 chosen each time."""
    untested = [TestReport() for _ in range(3)]
    assert _blind(untested, [0, 0, 0], [0, 0, 0], [])
    assert _blind(untested, [], [], [])  # a language that cannot be probed
    assert not _blind(untested[:2], [0, 0], [], [])  # two drafts: the ladder has one rung
    assert not _blind(untested, [0, 1, 1], [0, 0, 0], [])  # two agree on an output
    assert not _blind(untested, [0, 0, 0], [0, 2, 2], [])  # ... or on a mutated input
    assert not _blind(untested, [0, 0, 0], [], ["f(1) == 2"])  # a stated example to probe
    assert not _blind([*untested[:2], _report("passed")], [0, 0, 0], [], [])  # a test ran
    work = _failing_work(3, unanimous=False, missed=0).model_copy(
        update={"report": TestReport(), "blind": True}
    )
    assert next_step(work, EngineOptions(max_drafts=7), PYTHON) == "escalate"
    missed = work.model_copy(update={"examples_missed": 1})
    assert next_step(missed, EngineOptions(max_drafts=7), PYTHON) == "draw"


def test_an_answer_the_person_gave_draws_one_rung_past_a_full_ladder() -> None:
    """No draft of a full ladder was written with the person's answer: one more rung is,
    once per new answer; a default answer (nobody was asked) draws nothing more."""
    full = _failing_work(7, unanimous=False, missed=1)
    told = full.model_copy(update={"told": ["f(1) -> 2"], "answers": ["f(1) -> 2"]})
    options = EngineOptions(max_drafts=7)
    assert next_step(told, options, PYTHON) == "draw"
    assert next_step(told.model_copy(update={"informed": 1}), options, PYTHON) == "escalate"
    assert next_step(told.model_copy(update={"examples_missed": 0}), options, PYTHON) != "draw"
    assert next_step(told.model_copy(update={"hint": "go on"}), options, PYTHON) == "escalate"
    defaulted = full.model_copy(update={"answers": ["f(1) -> 2"]})
    assert next_step(defaulted, options, PYTHON) == "escalate"
