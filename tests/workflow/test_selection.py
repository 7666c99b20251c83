"""Choosing among candidates by execution agreement; quarantining disputed tests."""

from __future__ import annotations

import pytest

from codeproof.choosing.choice import Choice
from codeproof.choosing.selection import choose, judge
from codeproof.core.types import Diagnostic, Module, TestCase, TestReport
from codeproof.toolchains.client import ToolchainClient
from inproc import memory_python_toolchain


def _report(passed: list[str], failed: list[str]) -> TestReport:
    cases = [TestCase(name=n, outcome="passed") for n in passed]
    cases += [TestCase(name=n, outcome="failed", message="boom") for n in failed]
    return TestReport(total=len(cases), passed=len(passed), failed=len(failed), tests=cases)


def test_the_examples_a_choice_misses_count_generated_tests_and_probed_checks() -> None:
    ex1, ex2 = "test_f_examples.test_example_1", "test_f_examples.test_example_2"
    good, bad = _report([ex1, ex2, "t"], []), _report([ex1, "t"], [ex2])
    assert Choice(0, {}, {}, good, 1, reports=[good, bad]).examples_missed == 0
    assert Choice(1, {}, {}, bad, 1, reports=[good, bad]).examples_missed == 1
    crashed = TestReport(message="SyntaxError")  # ran no test at all: misses both
    assert Choice(1, {}, {}, crashed, 1, reports=[good, crashed]).examples_missed == 2
    plain = _report(["t"], [])  # Java: the examples are probed, not tests
    probed = Choice(1, {}, {}, plain, 2, reports=[plain, plain], examples_met=[3, 1])
    probed.example_checks = 3
    assert probed.examples_missed == 2


def test_code_that_loads_beats_code_that_does_not_when_none_passes_a_test() -> None:
    # py-bill-split: the drafts without a stated function fail to import in both test
    # files (2 errors); the others run the examples and fail them; all pass nothing
    unloadable = TestReport(
        total=2,
        errors=2,
        tests=[TestCase(name=n, outcome="error") for n in ("test_split", "test_split_examples")],
    )
    loads = _report([], ["test_split_examples.test_example_1", "test_split_examples.test_x"])
    loads.tests.append(TestCase(name="test_split", outcome="error"))
    loads.total, loads.errors = 3, 1
    assert not unloadable.loaded and loads.loaded
    assert judge([unloadable, unloadable, loads]).index == 2
    assert judge([unloadable, unloadable]).index == 0  # none loads: as before


def test_code_that_compiles_beats_code_that_does_not_when_no_test_is_left() -> None:
    # java-business-calendar: the one designed test was set aside (it compiled against no
    # draft), so no test ran; the greedy draft (LocalDate.SATURDAY) did not compile
    uncompiled = TestReport(
        errors=1,
        message="compilation failed: BusinessCalendar.java:12: cannot find symbol",
        diagnostics=[
            Diagnostic(file="BusinessCalendar.java", line=12, message="cannot find symbol")
        ],
    )
    empty = TestReport()  # compiled; the test class holds no test
    assert not uncompiled.compiled and empty.compiled and not empty.loaded
    assert judge([uncompiled, empty, uncompiled, empty]).index == 1
    assert judge([uncompiled, empty], examples_met=[0, 0], outputs_agree=[0, 0]).index == 1
    assert judge([empty, empty], outputs_agree=[0, 2]).index == 1  # then the outputs decide
    assert judge([uncompiled, uncompiled]).index == 0  # none compiles: the earliest


def test_the_largest_agreeing_group_wins_over_a_lone_scorer_of_other_tests() -> None:
    lone = _report(["a", "b", "d"], ["c"])
    group = _report(["a", "b", "c"], ["d"])
    verdict = judge([lone, group, group, group])
    assert verdict.index == 1 and verdict.agreeing == 3
    assert verdict.disputed == ("d",)  # one candidate passes "d", three agree it fails
    assert judge([lone, lone, group, group]).disputed == ()  # as many pass "d": kept


def test_a_lone_draft_passing_all_the_group_passes_and_more_wins_unless_outputs_say_no() -> None:
    # the stack request: two drafts missed "throws a RangeError if the capacity is not a
    # positive integer", one passed it and every other test; the pair's agreement set the
    # rule's test aside and the run said "passed" for code that breaks the rule
    lone = _report(["a", "b", "c", "d"], [])
    group = _report(["a", "b", "c"], ["d"])
    stated = frozenset({"d"})  # "d" checks the stated RangeError
    verdict = judge([group, group, lone], error_checks=stated)
    assert (verdict.index, verdict.agreeing, verdict.disputed) == (2, 1, ())
    # where probes reach the code, the drafts' outputs decide first
    agreeing = judge([group, group, lone], outputs_agree=[2, 2, 1], error_checks=stated)
    assert (agreeing.index, agreeing.disputed) == (0, ("d",))
    # and a stated example outranks both
    protected = frozenset({"c"})
    missing = _report(["a", "b", "d"], ["c"])
    assert judge([group, group, missing], protected=protected).index == 0


def test_agreement_on_a_value_outweighs_a_lone_draft_passing_one_more_test() -> None:
    # java-lru-cache at 84f9536: six drafts (the one call's 9/9 answer first) gave size 2
    # at capacity 2 where a designed test expected 3; the seventh, whose size grows past
    # the capacity, passed that test as well and was chosen: 5/9
    agreeing = _report(["get", "put"], ["size", "ctor"])
    lone = _report(["get", "put", "size"], ["ctor"])
    verdict = judge([agreeing] * 6 + [lone], error_checks=frozenset({"ctor"}))
    assert (verdict.index, verdict.agreeing) == (0, 6)
    # the same lone draft wins where its one more test checks a stated error
    assert judge([agreeing] * 6 + [lone], error_checks=frozenset({"size"})).index == 6
    # and only where every test more is one: a value check beside it is no omission
    both = _report(["get", "put", "size", "ctor"], [])
    assert judge([agreeing] * 3 + [both], error_checks=frozenset({"ctor"})).index == 0
    assert judge([agreeing] * 3 + [both], error_checks=frozenset({"ctor", "size"})).index == 3


def test_a_test_every_candidate_fails_is_disputed_when_a_group_agrees() -> None:
    a = _report(["a", "b", "c"], ["d"])
    b = _report(["a"], ["b", "c", "d"])
    verdict = judge([b, a, a])
    assert (verdict.index, verdict.agreeing, verdict.disputed) == (1, 2, ("d",))


def test_nothing_is_disputed_without_agreement_or_with_most_tests_failing() -> None:
    assert judge([_report(["a", "b"], ["c"])]).disputed == ()
    mostly_failing = _report(["a"], ["b", "c", "d"])
    assert judge([mostly_failing, mostly_failing]).disputed == ()


def test_a_minority_with_no_agreeing_output_does_not_outvote_a_test() -> None:
    """java-lru-cache at a24819f: tests passed per draft [3, 0, 2, 1, 3]; the two passing
    the same three set aside the other three, which were right."""
    pair = _report(["get", "size", "example"], ["put", "ctor", "keys"])
    others = [_report([], ["get"]), _report(["get", "put"], []), _report(["ctor"], [])]
    reports = [pair, others[0], others[1], others[2], pair]
    verdict = judge(reports)
    assert (verdict.index, verdict.agreeing, verdict.disputed) == (0, 2, ())
    backed = judge(reports, outputs_agree=[3, 0, 0, 0, 3])  # their outputs agree: evidence
    assert backed.disputed == ("put", "ctor", "keys")
    majority = judge([pair, pair, pair, others[1]])  # three of four agree
    assert majority.disputed == ("put", "ctor", "keys")


def test_ties_go_to_the_earliest_candidate_and_empty_runs_score_nothing() -> None:
    r = _report(["a"], ["b"])
    assert judge([TestReport(), r, r.model_copy()]).index == 1
    assert judge([TestReport(), TestReport()]).index == 0
    with pytest.raises(ValueError):
        judge([])


def test_protected_tests_are_never_disputed_and_outrank_agreement() -> None:
    lone = _report(["a", "b", "ex"], ["c"])
    group = _report(["a", "b", "c"], ["ex"])
    verdict = judge([group, group, lone], protected=frozenset({"ex"}))
    assert verdict.index == 2 and verdict.agreeing == 1
    assert judge([group, group], protected=frozenset({"ex"})).disputed == ()
    assert judge([group, group]).disputed == ("ex",)


SLUG = Module(name="slug", purpose="slugs", language="python", public_interface="slug(s)")
TESTS = """from slug import slug


def test_lower():
    assert slug("Ab") == "ab"


def test_spaces():
    assert slug("a b") == "a-b"


def test_wrong_expectation():
    assert slug("-a-") == "-a-"


def test_example():
    assert slug("A  b") == "a--b"
"""


@pytest.mark.docker
def test_a_wrong_test_is_quarantined_and_the_agreeing_code_kept(
    python_toolchain: ToolchainClient,
) -> None:
    right = "def slug(s):\n    return '-'.join(s.lower().split()).strip('-')\n"
    also_right = "def slug(s):\n    return s.lower().replace(' ', '-').strip('-')\n"
    wrong = "def slug(s):\n    return s\n"  # passes the wrong test, alone
    choice = choose(
        lambda files, tests: python_toolchain.run_tests(files, tests, 60),
        [{"slug.py": wrong}, {"slug.py": right}, {"slug.py": also_right}, {}],
        {"test_slug.py": TESTS},
        SLUG,
        ['slug("A  b") -> "a--b"'],  # the user's example: a protected, generated test
    )
    assert choice.index == 2 and choice.agreeing == 1  # the only one passing the example
    assert choice.quarantined == []
    assert 'assert slug("A  b") == "a--b"' in choice.tests["test_slug_examples.py"]
    assert choice.report.total == 5
    choice = choose(
        lambda files, tests: python_toolchain.run_tests(files, tests, 60),
        [{"slug.py": wrong}, {"slug.py": right}, {"slug.py": right + "\n"}, {}],
        {"test_slug.py": TESTS},
        SLUG,
    )
    assert choice.index == 1 and choice.agreeing == 2
    assert choice.quarantined == [
        "test_slug.test_wrong_expectation",
        "test_slug.test_example",
    ]
    assert "test_wrong_expectation" not in choice.tests["test_slug.py"]
    assert choice.report.green and choice.report.total == 2  # re-run on the kept tests
    assert [r.passed for r in choice.reports] == [1, 2, 2, 0]
    assert "set aside 2 test(s) or assertion(s)" in choice.note and "[1, 2, 2, 0]" in choice.note


def test_the_drafts_agreement_never_edits_the_users_worked_examples() -> None:
    # py-word-freq: the agreeing drafts' [('don', 2)] replaced the user's [("don't", 2)]
    # in the worked examples' test file, which then passed for the wrong code
    toolchain = memory_python_toolchain()
    one = "def slug(s):\n    return '-'.join(s.lower().split())\n"
    two = "def slug(s):\n    return s.lower().replace(' ', '-')\n"
    said = 'from slug import slug\n\n\ndef test_said():\n    assert slug("a b") == "a_b"\n'
    choice = choose(
        lambda files, tests: toolchain.run_tests(files, tests, 60),
        [{"slug.py": one}, {"slug.py": two}],
        {"test_slug.py": said, "test_slug_worked_examples.py": said},
        SLUG,
        run_program=lambda files, command, timeout: toolchain.run(files, command, None, timeout),
    )
    assert choice.tests["test_slug_worked_examples.py"] == said  # the user's word, kept
    # and so is a designer's restatement of it (py-durations at 68dd645: the agreement of
    # drafts raising ValueError set aside the designer's parse_duration('1h30m') == 5400)
    assert choice.tests["test_slug.py"] == said and not choice.report.green


STATS = Module(
    name="stats", purpose="counts", language="python", public_interface="freq(t), top(t)"
)
STATS_TESTS = """from stats import freq, top


def test_freq():
    assert freq("a a b") == [("a", 2), ("b", 1)]


def test_top():
    assert top("a a b") == "a"
    assert top("b") == "b"
"""
FREQ = "def freq(t):\n    n = {}\n    for w in t.split():\n        n[w] = n.get(w, 0) + 1\n"
FREQ += "    return sorted(n.items(), key=lambda p: (-p[1], p[0]))\n"


def test_drafts_sharing_a_bug_do_not_outvote_the_draft_without_it() -> None:
    # py-word-freq at 086b212: four drafts whose top_word read another function's local
    # variable agreed on !NameError, outvoted the one whose top_word worked, and shipped
    toolchain = memory_python_toolchain()
    broken = FREQ + "\n\ndef top(t):\n    return max(n, key=n.get)\n"
    working = FREQ + "\n\ndef top(t):\n    return freq(t)[0][0]\n"
    choice = choose(
        lambda files, tests: toolchain.run_tests(files, tests, 60),
        [{"stats.py": broken}] * 3 + [{"stats.py": working}],
        {"test_stats.py": STATS_TESTS},
        STATS,
        run_program=lambda files, command, timeout: toolchain.run(files, command, None, timeout),
    )
    assert [r.passed for r in choice.reports] == [1, 1, 1, 2]
    assert choice.index == 3 and choice.report.green
    assert choice.output_agreement == [3, 3, 3, 3]  # on freq only: !NameError agrees with none


JS_SLUG = Module(name="slug", purpose="slugs", language="javascript", public_interface="slug(s)")
JS_TESTS = """const test = require('node:test');
const assert = require('node:assert/strict');
const { slug } = require('./slug');

test('the users example, restated', () => {
  assert.strictEqual(slug('a b'), 'a_b');
});

test('another title', () => {
  assert.strictEqual(slug('c d'), 'c_d');
});
"""


def test_a_restatement_of_the_users_call_in_other_quotes_is_the_users_word(
    javascript_toolchain: ToolchainClient,
) -> None:
    # js-slugify at ef0269d: the drafts' agreement set the designed slugify('Hello,
    # World!') aside, because the user's example file wrote slugify("Hello, World!")
    drafts = [
        {"slug.js": f"function slug(s) {{ return {body}; }}\nmodule.exports = {{ slug }};\n"}
        for body in ("s.split(' ').join('-')", "s.replace(/ /g, '-')")
    ]
    choice = choose(
        lambda files, tests: javascript_toolchain.run_tests(files, tests, 60),
        drafts,
        {"slug.test.js": JS_TESTS},
        JS_SLUG,
        ['slug("a b") -> "a_b"'],
        run_program=lambda files, command, timeout: javascript_toolchain.run(
            files, command, None, timeout
        ),
    )
    kept = choice.tests["slug.test.js"]
    assert "assert.strictEqual(slug('a b'), 'a_b');" in kept  # the user's word
    assert "'c_d'" not in kept  # a call the user never made: the agreement decides
    assert not choice.report.green


def test_a_choice_among_drafts_no_test_or_output_tells_apart_is_blind() -> None:
    toolchain = memory_python_toolchain()
    drafts = [
        {"slug.py": f"def slug(s):\n    return s{suffix}\n"} for suffix in ("", "", ".lower()")
    ]
    run = lambda files, tests: toolchain.run_tests(files, tests, 60)  # noqa: E731
    empty = {"test_slug.py": "from slug import slug\n"}  # every test was set aside
    choice = choose(run, drafts, empty, SLUG)
    assert choice.blind and choice.index == 0 and choice.report.total == 0
    assert not choose(run, drafts[:2], empty, SLUG).blind  # two drafts: one more rung
    lower = 'def test_lower():\n    assert slug("A") == "a"\n'
    one = {"test_slug.py": f"from slug import slug\n\n\n{lower}"}
    assert not choose(run, drafts, one, SLUG).blind  # a test tells them apart


def _case(name: str, outcome: str) -> TestCase:
    return TestCase(name=name, outcome=outcome)


def test_an_example_file_no_candidate_loads_counts_as_missed_once() -> None:
    # py-inventory-report: no candidate loaded the worked examples' file, and the
    # candidate without the function it imports was counted as missing no example
    error = TestReport(tests=[_case("test_r_worked_examples", "error")])
    ran = TestReport(tests=[_case("test_r_worked_examples.test_csv", "failed")])
    alone = Choice(index=0, files={}, tests={}, report=error, agreeing=1, reports=[error, error])
    assert alone.examples_missed == 1
    both = Choice(index=0, files={}, tests={}, report=error, agreeing=1, reports=[error, ran])
    assert both.examples_missed == 1  # the file's one test, not also the error loading it
    assert Choice(1, {}, {}, ran, 1, reports=[error, ran]).examples_missed == 1


BOUND = Module(
    name="bound", purpose="checks", language="python", public_interface="bound(n: int) -> int"
)
BOUND_TESTS = """import pytest
from bound import bound


def test_small():
    assert bound(1) == 1


def test_large():
    assert bound(200) == 100


def test_negative():
    with pytest.raises(ValueError):
        bound(-1)
"""


def test_a_lone_draft_making_a_stated_error_check_wins_only_over_an_omission() -> None:
    # "raises ValueError if n is negative": two drafts leave the check out, one makes it;
    # where the one more test it passes is a value ("bound(200) == 100"), the pair wins
    toolchain = memory_python_toolchain()
    omits = "def bound(n):\n    return min(n, 100)\n"
    checks = "def bound(n):\n    if n < 0:\n        raise ValueError(n)\n    return min(n, 100)\n"
    run = lambda files, tests: toolchain.run_tests(files, tests, 60)  # noqa: E731
    drafts = [{"bound.py": omits}] * 2 + [{"bound.py": checks}]
    tests = {"test_bound.py": BOUND_TESTS}
    chosen = choose(run, drafts, tests, BOUND, errors={"ValueError"})
    assert [r.passed for r in chosen.reports] == [2, 2, 3] and chosen.index == 2
    assert choose(run, drafts, tests, BOUND).index == 0  # no stated error: CodeT's 2x2 > 1x3
    capped = "def bound(n):\n    if n < 0:\n        raise ValueError(n)\n    return n\n"
    other = [{"bound.py": capped}] * 2 + [{"bound.py": checks}]
    assert choose(run, other, tests, BOUND, errors={"ValueError"}).index == 0
