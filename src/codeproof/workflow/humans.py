"""Who answers a run's questions, and how an answer is checked against its question.

A question is an interrupt of the graph whose value describes itself (kind, question,
choices, default); :class:`Human` answers it in a terminal, a script or a test, and
:func:`check_answer` turns an answer given from outside (JSON, HTTP) into the graph's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel, ValidationError

from codeproof.core.errors import InputError
from codeproof.workflow.models import (
    DECISION_TYPES,
    ClarifyAnswer,
    ClarifyRequest,
    EscalationDecision,
    FailureReport,
    ModuleSelection,
    ModulesRequest,
    QuestionAnswer,
    QuestionRequest,
)


class Human(Protocol):
    """Whoever answers the workflow's questions (a terminal, a script, a test)."""

    def clarify(self, request: ClarifyRequest) -> ClarifyAnswer: ...

    def select_modules(self, request: ModulesRequest) -> ModuleSelection: ...

    def escalate(self, report: FailureReport) -> EscalationDecision: ...

    def answer(self, request: QuestionRequest) -> QuestionAnswer: ...


class AutoHuman:
    """``--yes``: each question's ``default``: proceed on assumptions, accept the modules,
    continue past failures, answer the proof's questions with what most drafts give."""

    def clarify(self, request: ClarifyRequest) -> ClarifyAnswer:
        return ClarifyAnswer.model_validate(request.default)

    def select_modules(self, request: ModulesRequest) -> ModuleSelection:
        return ModuleSelection.model_validate(request.default)

    def escalate(self, report: FailureReport) -> EscalationDecision:
        return EscalationDecision.model_validate(report.default)

    def answer(self, request: QuestionRequest) -> QuestionAnswer:
        return QuestionAnswer.model_validate(request.default)


_ASK: dict[str, Callable[[Human, Any], BaseModel]] = {
    "clarify": lambda h, v: h.clarify(ClarifyRequest.model_validate(v)),
    "modules": lambda h, v: h.select_modules(ModulesRequest.model_validate(v)),
    "escalation": lambda h, v: h.escalate(FailureReport.model_validate(v)),
    "question": lambda h, v: h.answer(QuestionRequest.model_validate(v)),
}
"""Interrupt kind -> how the human is asked."""


@dataclass(frozen=True)
class Pending:
    """A run stopped at a question for the human (status ``waiting``).

    ``value`` is the interrupt value, self-describing (kind, question, choices, default).
    """

    run_id: str
    interrupt_id: str
    kind: str
    value: dict[str, Any]


def check_answer(pending: Pending, answer: Any) -> dict[str, Any]:
    """The answer to ``pending`` as the graph takes it.

    Raises:
        InputError: The answer does not fit the question's kind.
    """
    schema = DECISION_TYPES[pending.kind]
    try:
        decision = schema.model_validate(answer)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "answer"
        raise InputError(
            f"the answer does not fit the {pending.kind} question: {where}: {first['msg']}",
            hint=f"answer like its default: {pending.value.get('default')}",
        ) from exc
    return decision.model_dump(mode="json", exclude_none=True)


def ask(human: Human, kind: str, value: dict[str, Any]) -> BaseModel | None:
    """``human``'s answer to the question ``value`` of ``kind`` (``None`` for a kind no
    human is asked)."""
    how = _ASK.get(kind)
    return None if how is None else how(human, value)
