"""Designed checks set aside for the drafts' word become questions for the human
(:func:`codeproof.proof.questions.disputed`), on the in-memory Python toolchain.

A range compressor (a request of session 34): every draft dropped the last number of a
run of two (``compress([1, 2])`` gave ``'1'``), a designed test expected ``'1-2'``, the
choice set the test aside for the agreeing drafts, and the module was reported passed
with nobody asked. Now the human is asked; ``--yes`` records the drafts' answer as an
assumption and costs nothing more.
"""

from __future__ import annotations

from dataclasses import replace

from codeproof.engine.answering import after_proof, answer, answer_pending
from codeproof.engine.context import Context, EngineOptions
from codeproof.engine.disputes import contradicted, vanished
from codeproof.engine.executing import execute
from codeproof.engine.loop import settle
from codeproof.engine.proving import prove, status_of
from codeproof.engine.state import Draft, Work
from codeproof.workflow.proof_nodes import request_for
from codeproof.workflow.proof_report import proof_lines
from inproc import python_context

_RUNS = """def compress(numbers):
    out, start = [], None
    for n in sorted(set(numbers)):
        if start is None:
            start = prev = n
        elif n == prev + 1:
            prev = n
        else:
            out.append(str(start) if start == prev else f"{start}-{prev}")
            start = prev = n
    if start is not None:
        out.append(str(start) if start == prev else f"{start}-{prev}")
    return ",".join(out)
"""
DROPS = _RUNS.replace(
    'out.append(str(start) if start == prev else f"{start}-{prev}")\n            start',
    'out.append(f"{start}-{prev}" if prev > start else str(start))\n            start',
).replace('out.append(str(start) if start == prev else f"{start}-{prev}")\n    return',
          'out.append(str(start) if start == prev else str(start))\n    return')  # fmt: skip
"""Drops the end of the last run: ``compress([1, 2])`` gives ``'1'``."""
DROPS_TOO = DROPS.replace("sorted(set(numbers))", "sorted(list(set(numbers)))")
RIGHT = """def compress(numbers):
    nums, out, i = sorted(set(numbers)), [], 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out += [f"{nums[i]}-{nums[j]}"] if j - i >= 2 else [str(n) for n in nums[i : j + 1]]
        i = j + 1
    return ",".join(out)
"""
"""Runs of three or more only, as the request said: ``compress([1, 2])`` gives ``'1,2'``."""
TESTS = {
    "test_ranges.py": "from ranges import compress\n\n\n"
    "def test_single():\n    assert compress([5]) == '5'\n\n\n"
    "def test_gap():\n    assert compress([1, 3]) == '1,3'\n\n\n"
    "def test_run():\n    assert compress([1, 2, 3, 7]) == '1-3,7'\n\n\n"
    "def test_two():\n    assert compress([1, 2]) == '1-2'\n"
}


def _chosen() -> tuple[Context, Work]:
    ctx = python_context("ranges", "compress(numbers)")
    ctx = replace(ctx, options=EngineOptions(proof_drafts=2, proof_budget_s=20))
    drafts = [
        Draft(files={"ranges.py": code}, source="direct", index=i)
        for i, code in enumerate([DROPS, DROPS_TOO])
    ]
    work = execute(ctx, Work(tests=TESTS, designed=TESTS, drafts=drafts))
    return ctx, work


def test_the_drafts_drop_a_number_and_the_test_of_it_is_set_aside() -> None:
    ctx, work = _chosen()
    assert work.verdict == "passed"  # green once the test of compress([1, 2]) is aside
    assert vanished(ctx, work) == ["compress([1, 2])"]
    checks, chosen, others = contradicted(ctx, work, ["compress([1, 2])"], ["'1'"], [["'1'"]])
    assert [(d.call, d.expected, d.agreed) for d in checks] == [
        ("compress([1, 2])", "'1-2'", "'1'")
    ]
    assert (chosen, others) == (["'1'"], [["'1'"]])
    # a hang, or an error that says the code is broken, is no answer to set a test against
    assert contradicted(ctx, work, ["compress([1, 2])"], ["!TimeoutError"], []) == ([], [], [])
    assert contradicted(ctx, work, ["compress([1, 2])"], ["!NameError"], []) == ([], [], [])


def test_a_designed_test_removed_whole_is_asked_about_too() -> None:
    # the same request run interactively: seven drafts, two agreeing; the choice removed
    # test_compress_two whole (every agreeing draft failed it), so no check was set aside
    # by agreement, and no question was asked before this
    ctx = replace(
        python_context("ranges", "compress(numbers)"),
        options=EngineOptions(proof_drafts=1, proof_budget_s=20),
    )
    kept = {"test_ranges.py": TESTS["test_ranges.py"].split("\n\n\ndef test_two")[0] + "\n"}
    drafts = [Draft(files={"ranges.py": DROPS}, source="direct", index=0)]
    work = Work(files=drafts[0].files, tests=kept, designed=TESTS, drafts=drafts, verdict="passed")
    proved = prove(ctx, work)
    assert [(q.call, q.default) for q in proved.pending] == [("compress([1, 2])", "'1'")]
    assert [(c.value, c.tests) for c in proved.pending[0].choices] == [("'1'", 0), ("'1-2'", 1)]


def test_the_set_aside_check_is_asked_and_yes_keeps_the_choice_as_an_assumption() -> None:
    ctx, work = _chosen()
    proved = prove(ctx, settle(work, "finish"))
    question = proved.pending[0]
    assert question.call == "compress([1, 2])" and question.default == "'1'"
    assert [(c.value, c.drafts, c.chosen, c.tests) for c in question.choices] == [
        ("'1'", 2, True, 0),
        ("'1-2'", 0, False, 1),
    ]
    shown = request_for("ranges", question, 1, 3)
    assert "`'1-2'` (a designed test)" in shown.question and "set aside" in shown.question

    done = answer_pending(ctx, proved)
    record = done.proof.questions[0] if done.proof else None
    assert record is not None and record.assumed and record.answer == "'1'"
    assert done.examples == proved.examples and not done.reprove  # no example, no re-proof
    assert after_proof(done) == "finish" and done.files == proved.files
    assert done.proof is not None and done.proof.kept_choices == ["compress([1, 2]) -> '1'"]
    assert done.proof.assumptions == []  # six times in seven the drafts are right there
    assert status_of(done) == "passed"
    lines = "\n".join(proof_lines("passed", done.proof))  # type: ignore[arg-type]
    assert "the designed test was set aside" in lines and "`'1-2'` (a designed test)" in lines


def test_a_person_s_answer_sends_the_module_back_to_a_draft_that_gives_it() -> None:
    ctx, work = _chosen()
    proved = prove(ctx, settle(work, "finish"))
    typed = answer(ctx, proved, "'1,2'", "human")
    assert typed.examples[-1] == "compress([1, 2]) -> '1,2'"
    assert typed.files is None and after_proof(typed) == "execute"
    # no draft gives it: the module ends failing the person's answer, not green before it
    none_gives = execute(ctx, typed)
    ended = settle(none_gives, "escalate")
    assert ended.report is not None and not ended.report.green
    failing = [t.name for t in ended.report.tests if t.outcome != "passed"]
    assert failing and all("examples" in name for name in failing)
    drafts = [*typed.drafts, Draft(files={"ranges.py": RIGHT}, source="direct", index=9)]
    again = execute(ctx, typed.model_copy(update={"drafts": drafts}))
    assert again.files == {"ranges.py": RIGHT} and again.examples_missed == 0


def test_an_error_the_request_does_not_state_is_no_answer() -> None:
    # a designed call of the wrong shape (set aside as a misfit) raises TypeError
    ctx, work = _chosen()
    assert contradicted(ctx, work, ["compress([1, 2])"], ["!TypeError"], []) == ([], [], [])
    stated = replace(ctx, words="compress raises TypeError for anything but a list")
    found, _, _ = contradicted(stated, work, ["compress([1, 2])"], ["!TypeError"], [])
    assert [(d.expected, d.agreed) for d in found] == [("'1-2'", "!TypeError")]


def _split_and_dispute(questions: int) -> list[str]:
    """The calls asked about where a peer draft (right on runs of two) splits from the
    chosen code on a proposed input and a removed designed test contradicts it."""
    ctx = replace(
        python_context("ranges", "compress(numbers)"),
        options=EngineOptions(proof_drafts=2, proof_budget_s=20, questions=questions),
    )
    kept = {"test_ranges.py": TESTS["test_ranges.py"].split("\n\n\ndef test_two")[0] + "\n"}
    drafts = [
        Draft(files={"ranges.py": code}, source="direct", index=i)
        for i, code in enumerate([DROPS, _RUNS])
    ]
    work = Work(
        files=drafts[0].files, tests=kept, designed=TESTS, drafts=drafts, verdict="passed",
        inputs=["compress([4, 5])"],
    )  # fmt: skip
    return [q.call for q in prove(ctx, work).pending]


def test_the_drafts_split_takes_the_room_first_a_contradicted_check_what_is_left() -> None:
    assert _split_and_dispute(1) == ["compress([4, 5])"]
    assert _split_and_dispute(3) == ["compress([1, 2])", "compress([4, 5])"]  # asked first
