"""Which attempt a module keeps (:mod:`codeproof.engine.executing`)."""

from __future__ import annotations

from codeproof.core.types import Diagnostic, TestCase, TestReport
from codeproof.engine.executing import better, examples_missed, execute
from codeproof.engine.state import Best, Draft, Work
from inproc import python_context

TESTS = {"test_m.py": "...", "test_m_examples.py": "..."}


def _report(cases: list[tuple[str, str]]) -> TestReport:
    tests = [TestCase(name=name, outcome=outcome) for name, outcome in cases]
    count = {o: sum(c.outcome == o for c in tests) for o in ("passed", "failed", "error")}
    return TestReport(
        total=len(tests), passed=count["passed"], failed=count["failed"],
        errors=count["error"], tests=tests,
    )  # fmt: skip


def test_code_that_does_not_load_is_never_kept_over_code_that_does() -> None:
    # py-word-freq: a repair cut short by the token limit did not parse; each of its test
    # files failed to import (one error per file), fewer "missed examples" than the five
    # failing example tests of the code it replaced, so the broken code was kept
    examples = [f"f({i}) -> {i}" for i in range(5)]
    work = Work(examples=examples)
    loading = _report(
        [("test_m.test_a", "passed"), ("test_m.test_b", "failed")]
        + [(f"test_m_examples.test_example_{i}", "failed") for i in range(5)]
    )
    broken = _report([("test_m", "error"), ("test_m_examples", "error")])
    ctx = python_context("m", "f(x)")
    assert examples_missed(ctx, work, {"m.py": "def f(x"}, broken) == 5
    assert examples_missed(ctx, work, {"m.py": "def f(x): pass"}, loading) == 5
    kept = Best(files={"m.py": "ok"}, tests=TESTS, report=loading, examples_missed=5, attempt=1)
    repaired = Best(files={"m.py": "cut"}, tests=TESTS, report=broken, examples_missed=1, attempt=2)
    assert better(kept, repaired, newer_wins_ties=False) is kept
    assert better(repaired, kept, newer_wins_ties=False) is kept
    other_tests = repaired.model_copy(update={"tests": {"test_m.py": "other"}})
    assert better(kept, other_tests, newer_wins_ties=True) is kept


def test_where_no_test_loads_code_that_compiles_is_kept() -> None:
    broken = TestReport(errors=1, diagnostics=[Diagnostic(file="C.java", line=3, message="x")])
    empty = TestReport()  # compiled, no test left to run
    kept = Best(
        files={"C.java": "broken"}, tests=TESTS, report=broken, examples_missed=0, attempt=1
    )
    compiles = Best(files={"C.java": "ok"}, tests=TESTS, report=empty, examples_missed=0, attempt=2)
    assert better(kept, compiles, newer_wins_ties=False) is compiles
    assert better(compiles, kept, newer_wins_ties=True) is compiles


def test_a_choice_whose_code_does_not_load_misses_every_stated_example() -> None:
    # py-bill-split: every draft failed to import in both test files, so no example test
    # ran and the choice counted 0 examples missed; that attempt stayed the best one
    examples = ["split_evenly(1000, 3) -> [334, 333, 333]", "split_evenly(4, 2) -> [2, 2]"]
    tests = {
        "test_split_examples.py": "from split import split_evenly\n\n\n"
        "def test_example_1():\n    assert split_evenly(1000, 3) == [334, 333, 333]\n"
    }
    drafts = [
        Draft(
            files={"split.py": "def split_bill(a, p):\n    return []\n"}, source="direct", index=0
        )
    ]
    work = Work(examples=examples, tests=tests, designed=tests, drafts=drafts)
    done = execute(python_context("split", "split_evenly(total, people)"), work)
    assert done.report is not None and not done.report.loaded
    assert done.examples_missed == 2 and done.best is not None
    assert done.best.examples_missed == 2


def test_a_reports_failures_are_its_failed_and_erring_tests_in_order() -> None:
    report = TestReport(
        total=4,
        passed=1,
        failed=2,
        errors=1,
        tests=[
            TestCase(name="t.test_a", outcome="failed", message="assert 1 == 2"),
            TestCase(name="t.test_b", outcome="passed"),
            TestCase(name="t.test_c", outcome="error", message="ImportError"),
            TestCase(name="t.test_d", outcome="failed"),
        ],
    )
    assert [t.name for t in report.failures] == ["t.test_a", "t.test_c", "t.test_d"]
    assert TestReport(total=1, passed=1, tests=[report.tests[1]]).failures == []


def test_code_defining_the_declared_names_is_kept_over_code_lacking_them() -> None:
    # py-inventory-report at ec04028: a draft rewriting Inventory with a to_csv method
    # and no function to_csv stayed the best attempt over a later choice defining it
    ctx = python_context("report", "report.to_csv(inventory: Inventory) -> str")
    report = _report([("test_report.test_a", "passed"), ("test_report.test_b", "failed")])
    method = Best(
        files={"report.py": "class Inventory:\n    def to_csv(self):\n        return ''\n"},
        tests=TESTS, report=report, examples_missed=1, attempt=1,
    )  # fmt: skip
    function = method.model_copy(
        update={"files": {"report.py": "def to_csv(inventory):\n    return ''\n"}, "attempt": 2}
    )
    for newer in (True, False):
        assert better(method, function, newer_wins_ties=newer, module=ctx.module) is function
        assert better(function, method, newer_wins_ties=newer, module=ctx.module) is function
    assert better(function, method, newer_wins_ties=True) is method  # without the interface


def test_an_example_file_that_does_not_load_misses_its_examples() -> None:
    ctx = python_context("report", "report.to_csv(inventory: Inventory) -> str")
    report = _report([("test_report.test_a", "passed"), ("test_report_worked_examples", "error")])
    assert examples_missed(ctx, Work(), {"report.py": "class Inventory: pass\n"}, report) == 1


def test_a_check_set_aside_at_every_choice_is_reported_once() -> None:
    # py-roman at 76beeff: the ladder chose three times among 3, 5 and 7 drafts, and each
    # choice set aside the same 9 assertions; the report listed all 9 three times
    tests = {
        "test_inc.py": "from inc import inc\n\n\n"
        "def test_inc():\n    assert inc(1) == 2\n    assert inc(2) == 9\n"
    }
    bodies = ["x + 1", "1 + x", "x - -1"]  # three ways to write it: three distinct drafts
    drafts = [
        Draft(files={"inc.py": f"def inc(x):\n    return {b}\n"}, source="direct", index=i)
        for i, b in enumerate(bodies)
    ]
    ctx = python_context("inc", "inc(x)")
    first = execute(ctx, Work(tests=tests, designed=tests, drafts=drafts[:2]))
    assert len(first.test_changes) == 1 and "inc(2) == 9" in first.test_changes[0]
    second = execute(ctx, first.model_copy(update={"files": None, "drafts": drafts}))
    assert second.choice != first.choice  # a new choice, among three drafts
    assert second.test_changes == [second.choice]
