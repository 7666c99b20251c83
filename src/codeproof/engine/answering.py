"""Answers to the proof's questions: each becomes a stated example of the module.

An answer is the user's word about the behaviour (or, with ``--yes`` and in the
evaluation, the default recorded as an assumption): it joins the module's stated
examples, which are never set aside and rank the drafts first. An answer the chosen code
gives adds its check, and the proof runs again with it; one it does not give sends the
module back to the choice among its drafts (the chosen code stays a candidate); when no
draft meets an answer the person gave, the next drafts are written with it
(:func:`codeproof.engine.state.answer_unmet`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Literal

from codeproof.choosing.examples import example_tests
from codeproof.choosing.probing import example_checks
from codeproof.core.proof import Proof, ProofQuestion
from codeproof.engine.context import Context
from codeproof.engine.state import Draft, Work, drafts_of
from codeproof.languages.values import raised_error
from codeproof.proof.questions import shown

After = Literal["ask", "execute", "prove", "finish"]
By = Literal["human", "default"]


def after_proof(work: Work) -> After:
    """What follows a proof: the next question, the choice again, the proof again, or
    the module's end."""
    if work.pending:
        return "ask"
    if work.files is None:
        return "execute"
    return "prove" if work.reprove else "finish"


def answer_pending(ctx: Context, work: Work) -> Work:
    """Every pending question answered by its default (no human to ask)."""
    while work.pending:
        work = answer(ctx, work, work.pending[0].default, "default")
    return work


def expected_text(ctx: Context, question: ProofQuestion, value: str) -> str:
    """The expected result of ``value`` as an example states it: a choice as the drafts
    gave it; a typed value as written when the module's examples read it, else as a
    string."""
    if any(c.value == value for c in question.choices):
        return shown(value)
    for text in (value.strip(), json.dumps(value.strip(), ensure_ascii=False)):
        stated = f"{question.call} -> {text}"
        if example_tests(ctx.module, [stated]) or example_checks(ctx.module, [stated]):
            return text
    return json.dumps(value.strip(), ensure_ascii=False)


def normalized(ctx: Context, question: ProofQuestion, value: str) -> str:
    """A typed answer as the drafts' outputs write it where it is one of them (``raises
    ValueError`` is ``!ValueError``; ``"a-b"`` is the choice ``'a-b'``); else as typed."""
    value = value.strip()
    error = raised_error(value)
    if error is not None:
        return f"!{error}"
    read = ctx.language.choosing.value
    ok, typed = read(value) if read is not None else (False, None)
    for choice in question.choices if ok else []:
        if choice.value == value or _same(read, choice.value, typed):
            return choice.value
    return value


def _same(read: Callable[[str], tuple[bool, object]] | None, output: str, typed: object) -> bool:
    ok, got = read(output) if read is not None else (False, None)
    if not ok:
        try:
            ok, got = True, json.loads(output)
        except ValueError:
            return False
    return type(got) is type(typed) and got == typed


def answer(ctx: Context, work: Work, value: str, by: By) -> Work:
    """Take ``value`` as the answer to the first pending question.

    The default answer to a designed check the code contradicts
    (:func:`codeproof.proof.questions.disputed`) is what the code already does: it is
    recorded as an assumption and changes nothing (no example, no second proof), so
    ``--yes`` costs no more than before it was asked."""
    question = work.pending[0]
    value = normalized(ctx, question, value)
    stated = f"{question.call} -> {expected_text(ctx, question, value)}"
    record = question.model_copy(update={"answer": value, "by": by})
    proof = work.proof or Proof()
    if by == "default" and question.disputes_a_test and value == question.default:
        recorded = proof.model_copy(update={"questions": [*proof.questions, record]})
        return work.model_copy(update={"pending": work.pending[1:], "proof": recorded})
    update: dict[str, object] = {
        "pending": work.pending[1:],
        "examples": [*work.examples, stated],
        "answers": [*work.answers, stated],
        "told": [*work.told, stated] if by == "human" else work.told,
        "proof": proof.model_copy(update={"questions": [*proof.questions, record]}),
    }
    chosen = next((c.value for c in question.choices if c.chosen), None)
    if value != chosen and work.files is not None:
        update.update(_choose_again(work, question))
    work = work.model_copy(update=update)
    if work.pending or work.files is None:
        return work
    return _fold(ctx, work)


def _choose_again(work: Work, question: ProofQuestion) -> dict[str, object]:
    """Back to the choice among the drafts, the current code one of them. The best
    attempt so far is forgotten: it was measured without the answer (none of its stated
    examples missed), and kept over every later attempt that misses the answer it would
    have shipped code the person had just said was wrong, with no failing test shown."""
    drafts = list(work.drafts)
    if work.files and all(d.files != work.files for d in drafts):
        index = len(drafts_of(work, "repair"))
        drafts.append(Draft(files=work.files, source="repair", index=index, note=work.change))
    return {
        "drafts": drafts,
        "files": None,
        "best": None,
        "verdict": None,
        "change": f"the answer to {question.call} is not what the chosen code returns",
    }


def _fold(ctx: Context, work: Work) -> Work:
    """The answers' example tests replace the proof's own checks; prove again."""
    added = set(work.proof.files) if work.proof else set()
    tests = {path: text for path, text in work.tests.items() if path not in added}
    tests.update(example_tests(ctx.module, work.examples))
    return work.model_copy(update={"tests": tests, "reprove": True})
