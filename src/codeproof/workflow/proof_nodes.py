"""The proof's nodes: thin adapters over :mod:`codeproof.engine.proving`.

``prove`` runs the engine's proof of the settled module (the evaluation runs the same
step in :func:`codeproof.engine.loop.build`). With ``--yes`` its questions take their
default answers at once (recorded as assumptions); otherwise ``ask`` puts each to the
human as an interrupt (:class:`~codeproof.workflow.models.QuestionRequest`), one per
node run. After either, :func:`codeproof.engine.answering.after_proof` decides: the next
question, the choice among the drafts again, the proof again, or the module's end.
"""

from __future__ import annotations

from typing import Any

from langgraph.types import interrupt

from codeproof.core.proof import ProofQuestion
from codeproof.engine import loop
from codeproof.engine.answering import After, after_proof, answer, answer_pending
from codeproof.engine.proving import prove as engine_prove
from codeproof.proof.questions import backing, shown
from codeproof.workflow.deps import Deps
from codeproof.workflow.models import (
    ChoiceShown,
    QuestionAnswer,
    QuestionRequest,
    WorkflowState,
)
from codeproof.workflow.module_nodes import context, current_module, work_of

Update = dict[str, Any]


def prove(deps: Deps, state: WorkflowState) -> Update:
    """Measure and strengthen the proof of the module's final code; pose questions."""
    work = work_of(state)
    if not work.reprove:  # from the choice or an escalation: the module's best attempt
        work = loop.settle(work, "finish" if work.verdict == "passed" else "escalate")
    ctx = context(deps, state)
    work = engine_prove(ctx, work)
    if deps.options.auto:
        work = answer_pending(ctx, work)
    return {"work": work.model_dump(mode="json")}


def request_for(module: str, question: ProofQuestion, number: int, limit: int) -> QuestionRequest:
    """The interrupt value of one question (what the human is shown)."""
    results = [
        ChoiceShown(
            value=c.value,
            shown=shown(c.value),
            drafts=c.drafts,
            chosen=c.chosen,
            tests=c.tests,
            backing=backing(c),
        )
        for c in question.choices
    ]
    options = " or ".join(f"`{c.shown}` ({c.backing})" for c in results)
    why = (
        " (a test written from the request expected another result than the drafts give; "
        "it was set aside)"
        if question.disputes_a_test
        else ""
    )
    return QuestionRequest(
        module=module,
        call=question.call,
        question=f"`{question.call}`: {options}? or type the expected value{why}"
        + (f" (the request reads `{shown(question.default)}`)" if question.read else ""),
        results=results,
        suggested=question.default,
        number=number,
        limit=limit,
    )


def ask(deps: Deps, state: WorkflowState) -> Update:
    """Put the first pending question to the human; the answer becomes an example."""
    work, ctx = work_of(state), context(deps, state)
    asked = len(work.proof.questions) if work.proof else 0
    request = request_for(
        current_module(state).name, work.pending[0], asked + 1, ctx.options.questions
    )
    reply = QuestionAnswer.model_validate(interrupt(request.model_dump(mode="json")))
    work = answer(ctx, work, reply.value, "human")
    return {"work": work.model_dump(mode="json")}


def after(state: WorkflowState) -> After:
    """Where the graph goes after ``prove`` or ``ask``."""
    return after_proof(work_of(state))
