"""The proof's language-free logic: sampling, grouping by behaviour, kills, agreement,
questions, the checks' cover and count, and the time box."""

from __future__ import annotations

from codeproof.core.types import TestCase, TestReport
from codeproof.engine.context import EngineOptions
from codeproof.engine.mutating import analyse
from codeproof.engine.proving import prove
from codeproof.languages.code_mutants import CodeMutant
from codeproof.proof.checks import count_checks, cover
from codeproof.proof.mutation import group, kills, sample
from codeproof.proof.questions import agreed, questions
from inproc import python_context


def _mutant(operator: str, n: int) -> CodeMutant:
    return CodeMutant(operator, n, "a", "b", f"{operator}{n}")


def test_sample_spreads_over_operators_and_is_reproducible() -> None:
    mutants = [_mutant("constant", i) for i in range(20)] + [
        _mutant("boundary", 1),
        _mutant("regex", 1),
        _mutant("regex", 2),
    ]
    taken = sample(mutants, 6, "seed")
    assert [m.operator for m in taken].count("constant") == 3
    assert {m.operator for m in taken} == {"constant", "boundary", "regex"}
    assert taken == sample(mutants, 6, "seed") and len(sample(mutants, 99, "s")) == 23
    assert sample(mutants, 0, "seed") == []


def test_mutants_group_by_behaviour() -> None:
    original = ["1", "2", "3"]
    found = group(
        original, [["1", "2", "3"], None, ["1", "9", "3"], ["1", "9", "3"], ["0", "2", "3"]]
    )
    assert found.equivalent == [0] and found.stillborn == [1]
    assert [(b.mutants, b.differs) for b in found.behaviours] == [([2, 3], [1]), ([4], [0])]


def _report(*outcomes: str, **kw: object) -> TestReport:
    tests = [TestCase(name=f"t{i}", outcome=o) for i, o in enumerate(outcomes)]  # type: ignore[arg-type]
    passed = sum(o == "passed" for o in outcomes)
    return TestReport(total=len(tests), passed=passed, tests=tests, **kw)  # type: ignore[arg-type]


def test_a_mutant_is_killed_by_a_test_the_code_passes() -> None:
    code = _report("passed", "passed", "failed")
    assert kills(code, _report("passed", "failed", "failed"))
    assert not kills(code, _report("passed", "passed", "failed"))
    assert not kills(code, _report("passed", "passed", "passed"))  # a fix is no kill
    assert kills(code, _report("passed", "passed", "failed", timed_out=True))
    assert kills(code, TestReport(message="does not load"))


def test_expected_values_need_agreeing_distinct_drafts() -> None:
    chosen = ["'a-b'", "'x'", "!ValueError", "!TimeoutError", "'q'"]
    others = [
        ["'a-b'", "'y'", "!ValueError", "!TimeoutError", "'r'"],
        ["'a---b'", "'y'", "!ValueError", "!TimeoutError", "'s'"],
        None,  # not probed: no vote
    ]
    assert agreed(chosen, others, errors=True) == {0: "'a-b'", 2: "!ValueError"}
    assert agreed(chosen, others, errors=False) == {0: "'a-b'"}
    assert agreed(chosen, [], errors=True) == {}  # one draft is no agreement


def test_a_bug_is_no_expected_value_and_no_answer() -> None:
    calls, chosen = ["top('a a')", "top('b')"], ["!NameError", "'b'"]
    same: list[list[str] | None] = [["!NameError", "'b'"]]
    broken = {"NameError"}
    assert agreed(chosen, same, errors=True) == {0: "!NameError", 1: "'b'"}
    assert agreed(chosen, same, errors=True, broken=broken) == {1: "'b'"}
    others: list[list[str] | None] = [["!NameError", "'c'"], ["'a'", "'b'"]]
    assert [q.call for q in questions(calls, chosen, others)] == ["top('a a')", "top('b')"]
    assert [q.call for q in questions(calls, chosen, others, broken=broken)] == ["top('b')"]


def test_questions_rank_by_information_and_skip_repeated_splits() -> None:
    calls = ["f(1)", "f(2)", "f(3)", "f(4)", "f(5)"]
    chosen = ["1", "2", "3", "!TimeoutError", "5"]
    others = [["1", "9", "7", "4", "6"], ["0", "9", "7", "4", "7"]]
    asked = questions(calls, chosen, others, limit=3)
    # f(2) and f(3) split the drafts alike (chosen alone); f(2) comes first
    # then f(5), where two drafts disagree with the chosen code, before f(1), where one does
    assert [q.call for q in asked] == ["f(2)", "f(5)", "f(1)"]
    first = asked[0]
    assert first.default == "9" and [(c.value, c.drafts, c.chosen) for c in first.choices] == [
        ("9", 2, False),
        ("2", 1, True),
    ]
    assert asked[1].default == "5" and len(asked[1].choices) == 3  # a tie: the chosen code
    assert [q.call for q in questions(calls, chosen, others, asked={"f(2)"}, limit=1)] == ["f(3)"]
    assert questions(calls, chosen, others, limit=0) == []


def test_a_call_of_a_passing_test_defaults_to_the_chosen_answer() -> None:
    calls, chosen = ["f(0)", "f(7)"], ["(1, 0)", "(0, 1)"]
    others = [["(0, 0)", "(0, 1)"], ["(0, 0)", "(0, 2)"]]  # two drafts share a misreading
    [backed, free] = questions(calls, chosen, others, backed={"f(0)"}, limit=3)
    assert backed.call == "f(0)" and backed.default == "(1, 0)"  # the test's, not the vote's
    assert [(c.value, c.drafts) for c in backed.choices] == [("(0, 0)", 2), ("(1, 0)", 1)]
    assert free.call == "f(7)" and free.default == "(0, 1)"  # most drafts (the chosen too)
    [outvoted] = questions(calls[:1], chosen[:1], [o[:1] for o in others], limit=3)
    assert outvoted.default == "(0, 0)"  # without a test the majority is the default


def test_cover_picks_few_checks_preferring_spec_inputs() -> None:
    calls = ["f(1)", "f(22)", "f(333)", "f(4)"]
    survivors = [[0, 1], [1, 3], [2], [3]]
    expected = {0: "a", 1: "b", 3: "d"}  # no agreed value on input 2
    plan = cover(survivors, expected, calls, preferred=2)
    assert plan == [(1, [0, 1]), (3, [3])]  # survivor 2 cannot be checked
    assert cover(survivors, expected, calls, preferred=2, limit=1) == [(1, [0, 1])]


def test_distinct_checks_are_counted_by_their_text() -> None:
    tests = {
        "test_a.py": "def test_x():\n    assert f(1) == 2\n    assert f( 1 )==2\n\n"
        "def test_y():\n    assert f(1) == 2\n    assert f(3) == 4\n",
        "a.test.js": "test('t', () => { assert.equal(f(1), 2); assert.equal(f(1), 2); });",
    }
    assert count_checks("python", {"test_a.py": tests["test_a.py"]}) == (4, 3)
    assert count_checks("javascript", {"a.test.js": tests["a.test.js"]}) == (2, 1)
    assert count_checks("cobol", tests) == (0, 0)


def test_an_empty_time_box_runs_no_mutant() -> None:
    from test_proving import _context, _model  # the slug world of the engine's tests

    from codeproof.engine.executing import execute
    from codeproof.engine.loop import prepare, settle, start

    ctx = _context(_model(), proof_budget_s=0)
    work = settle(execute(ctx, start(ctx, prepare(ctx))), "finish")
    proof = prove(ctx, work).proof
    assert proof is not None and proof.mutation is not None
    assert proof.mutation.timed_out and proof.mutation.probed == proof.mutation.tested == 0
    assert proof.strength == "unmeasured"
    assert isinstance(ctx.options, EngineOptions) and ctx.options.proof_budget_s == 0


def test_probes_that_all_raise_leave_every_mutant_to_the_tests() -> None:
    # the tally request: its methods probed as functions (``add(4)``) all raise
    # NameError, so all 13 mutants looked equivalent and the proof was "unmeasured"
    code = (
        "class Tally:\n    def __init__(self):\n        self.total = 0\n\n"
        "    def add(self, points):\n        if points < 0:\n            raise ValueError\n"
        "        self.total += points\n"
    )
    tests = {
        "test_tally.py": "from tally import Tally\n\n\ndef test_add():\n    t = Tally()\n"
        "    t.add(4)\n    assert t.total == 4\n"
    }
    ctx = python_context("tally", "add(p)")
    files = {"tally.py": code}
    report = ctx.run_tests(files, tests, 10.0)
    analysis = analyse(ctx, files, tests, report, ["add(4)", "add(-1)"])
    mutation = analysis.mutation
    assert report.green and mutation.probed == 0 and mutation.equivalent == 0
    assert mutation.tested == mutation.behaviours > 0 and 0 < mutation.killed < mutation.tested
