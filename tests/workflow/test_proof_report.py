"""The report's Proof column and section, and the strength grading behind the status."""

from __future__ import annotations

from codeproof.core.proof import Mutation, ProofCheck, ProofQuestion, QuestionChoice
from codeproof.core.reports import ModuleOutcome, ModuleReport, RunReport
from codeproof.core.types import Module, TestReport
from codeproof.engine.proving import status_of
from codeproof.engine.state import Work
from codeproof.proof.strength import assumed, grade, status
from codeproof.workflow.assemble import render_report_md

MODULE = Module(name="slugify", purpose="", language="python", public_interface="slugify(t)")


def _mutation(killed: int, by_checks: int, tested: int, **kw: object) -> Mutation:
    survivors = [f"line {i} (constant): `1` -> `2`" for i in range(tested - killed - by_checks)]
    return Mutation(
        generated=30, sampled=20, probed=20, equivalent=3, stillborn=1, behaviours=tested,
        tested=tested, killed=killed, killed_by_checks=by_checks, survivors=survivors,
        operators={"regex": 5, "constant": 15}, inputs=12, seconds=14.2, budget_s=120, **kw,
    )  # fmt: skip


def test_strength_thresholds_and_status() -> None:
    assert grade(_mutation(8, 0, 10), 3).strength == "strong"
    assert grade(_mutation(6, 1, 10), 5).strength == "moderate"
    weak = grade(_mutation(5, 0, 10), 5)
    assert weak.strength == "weak" and weak.weaknesses[0].startswith(
        "mutation score 50% (at least 60% needed): 5 mutant(s) survive the tests, e.g. line 0"
    )
    few = grade(_mutation(10, 0, 10), 2)
    assert few.strength == "weak"
    assert few.weaknesses == ["2 distinct check(s) in the kept tests (at least 3 needed)"]
    cut = grade(_mutation(2, 0, 2, timed_out=True), 4)
    assert (
        cut.strength == "unmeasured" and "the time box (120 s) ended after 2" in cut.weaknesses[0]
    )
    none = grade(None, 4, "no test ran on the code")
    assert none.strength == "unmeasured" and none.weaknesses == ["no test ran on the code"]
    assert status("passed", grade(_mutation(8, 0, 10), 3)) == "passed"
    assert status("passed", weak) == status("passed", none) == status("passed", None) == "weak"
    assert status("failed", grade(_mutation(8, 0, 10), 3)) == "failed"
    assert status("failed", none, untested=True) == "weak"  # every test set aside


def _asked(by: str) -> ProofQuestion:
    choices = [QuestionChoice(value="'a-b'", drafts=2), QuestionChoice(value="'a---b'", drafts=1)]
    return ProofQuestion(
        call="slugify('a - b')", choices=choices, default="'a-b'", answer="'a-b'", by=by
    )


def test_green_code_resting_on_an_assumed_answer_is_weak() -> None:
    strong = grade(_mutation(8, 0, 10), 3)
    by_person = strong.model_copy(update={"questions": [_asked("human")]})
    by_default = strong.model_copy(update={"questions": [_asked("default")]})

    assert status("passed", by_person) == "passed" and assumed(by_person) is None
    assert status("passed", by_default) == "weak"
    assert assumed(by_default) == (
        "1 answer(s) assumed where the drafts disagree, nobody asked: slugify('a - b') -> 'a-b'"
    )
    assert status("failed", by_default) == "failed"


def test_code_with_every_test_set_aside_is_weak_not_failed() -> None:
    """Nothing failed and nothing was shown: ``weak``, and only for code that compiles
    and meets every stated example."""
    work = Work(files={"LruCache.java": "class LruCache {}"}, report=TestReport(), verdict="failed")
    assert status_of(work) == "weak"
    assert status_of(work.model_copy(update={"examples_missed": 1})) == "failed"
    broken = TestReport(errors=1, message="LruCache.java:1: error: ';' expected")
    assert status_of(work.model_copy(update={"report": broken})) == "failed"
    assert status_of(work.model_copy(update={"report": TestReport(timed_out=True)})) == "failed"
    assert status_of(work.model_copy(update={"files": {}})) == "failed"


def test_the_report_says_how_strong_the_proof_is() -> None:
    proof = grade(_mutation(7, 2, 10), 6).model_copy(
        update={
            "checks": 8,
            "distinct_checks": 6,
            "drafts": 3,
            "drawn": 4,
            "added": [
                ProofCheck(
                    call="slugify('x,y')",
                    expected="'x-y'",
                    origin="agreement",
                    kills=["line 3 (regex): `'[^a-z]+'` -> `'[^a-z]'`"],
                ),
            ],
            "set_aside": [
                "test_slugify.py::slugify('A') == 'A' (the agreeing candidates return 'a')"
            ],
            "questions": [
                ProofQuestion(
                    call="slugify('a - b')",
                    choices=[
                        QuestionChoice(value="'a-b'", drafts=2),
                        QuestionChoice(value="'a---b'", drafts=1, chosen=True),
                    ],
                    default="'a-b'",
                    answer="'a-b'",
                    by="default",
                )
            ],
        }
    )
    outcome = ModuleOutcome(module=MODULE, status=status("passed", proof), proof=proof)
    line = ModuleReport.from_outcome(outcome)
    assert line.mutation_score == 0.9 and line.status == "weak"  # on an assumed answer
    md = render_report_md(RunReport(title="t", modules=[line]))
    assert "| `slugify` | weak | strong (90%) |" in md
    assert "- Status: weak; proof: strong" in md
    assert "- Mutation score: 90% (9 of 10 mutant behaviours told apart by the kept tests; " in md
    assert "70% before the proof's checks)" in md
    assert "3 look equivalent, 1 do not compile or load, 10 distinct behaviours" in md
    assert "- Checks kept: 8 (6 distinct); drafts drawn: 4; compared on probe inputs: 3 (" in md
    assert "  - `slugify('x,y')` gives `'x-y'` (agreement; tells apart line 3 (regex)" in md
    assert "  - test_slugify.py::slugify('A') == 'A'" in md
    assert (
        "  - `slugify('a - b')`: `'a-b'` (2 drafts), `'a---b'` (1 draft, the chosen code); "
        "assumed (`--yes`: what most drafts return): `'a-b'`"
    ) in md
    assert "- Surviving mutants (no kept test tells them apart):\n  - line 0 (constant)" in md


def test_a_module_that_does_not_pass_says_which_tests_fail_or_what_did_not_compile() -> None:
    from codeproof.core.reports import SHOWN_MESSAGE, FailingTest
    from codeproof.core.types import Diagnostic, TestCase

    long = "AssertionError: " + "x" * 300
    runs = "\n  assert 'a--b' == 'a-b'\nmore"
    ran = TestReport(
        total=3, passed=1, failed=1, errors=1,
        tests=[
            TestCase(name="t.test_ok", outcome="passed"),
            TestCase(name="t.test_runs", outcome="failed", message=runs),
            TestCase(name="t.test_long", outcome="error", message=long),
        ],
    )  # fmt: skip
    failing = FailingTest.of(ran)
    assert [(f.name, f.message[:24]) for f in failing] == [
        ("t.test_runs", "assert 'a--b' == 'a-b'"),
        ("t.test_long", "AssertionError: xxxxxxxx"),
    ]
    assert len(failing[1].message) == SHOWN_MESSAGE and failing[1].message.endswith("…")
    broken = TestReport(diagnostics=[Diagnostic(file="Slug.java", line=3, message="';' expected")])
    assert FailingTest.of(broken) == [FailingTest(name="Slug.java:3", message="';' expected")]
    assert FailingTest.of(TestReport(total=1, passed=1)) == []

    outcome = ModuleOutcome(module=MODULE, status="failed", report=ran)
    md = render_report_md(RunReport(title="t", modules=[ModuleReport.from_outcome(outcome)]))
    section = md.split("## Failing tests\n", 1)[1].split("\n## ", 1)[0]
    assert "### `slugify`\n\n- `t.test_runs`: assert 'a--b' == 'a-b'\n- `t.test_long`: " in section
    assert "t.test_ok" not in section
