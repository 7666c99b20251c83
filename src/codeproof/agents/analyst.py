"""The analyst: clarifying questions, then the structured specification."""

from __future__ import annotations

import logging

from pydantic import Field

from codeproof.agents.prompting import (
    conversation,
    join_sections,
    render_answers,
    section,
)
from codeproof.core.errors import StructuredOutputError
from codeproof.core.types import QA, Clarification, Spec
from codeproof.languages import registry
from codeproof.languages.registry import normalize_language
from codeproof.llm.base import ChatModel, ChatSettings

logger = logging.getLogger(__name__)

MAX_QUESTIONS = 3

CLARIFY_SYSTEM = """You are a requirements analyst for small programming tasks.
Decide if the request is clear enough to write the code.
- If it is clear, set "ready" to true and ask no questions.
- If not, ask at most 3 short questions about what matters most: inputs, outputs, \
edge cases, errors.
- Always list the assumptions you would make if the user says "proceed"."""

CLARIFY_USER = """Request: {request}

{answers}

This is question round {round} of {max_rounds}."""

EXAMPLE_FORM = "call -> expected result"
"""How the analyst is told to write an example (a small model sometimes copies it as one)."""

ANALYZE_SYSTEM = """You turn a programming request into a precise specification.
Be concrete:
- "interfaces": exact function or class signatures, e.g. "add(a: int, b: int) -> int", with
  exactly the names the request gives (files, functions, classes, methods).
- "acceptance_examples": at least 3 examples "{example_form}", including an edge case.
- "functional_requirements": short sentences, one behaviour each.
- "language": {language_rule}
Keep it as small as the request: do not add features nobody asked for."""

ANALYZE_USER = """Request: {request}

{details}"""


CLARIFY_SETTINGS = ChatSettings(max_tokens=384)
"""A clarification is a few sentences: a small budget stops a reply that runs away
(seen: a 1.5B model filling 2 x 1024 tokens with one JSON string, ten minutes on CPU)."""


ANALYZE_SETTINGS = ChatSettings(max_tokens=2048)
"""A spec lists requirements, interfaces and examples: more than the default budget
(seen: a 1.5B spec of a two-method Java class cut at 1024 tokens, twice)."""


def clarify(
    model: ChatModel, request: str, answers: list[QA], *, round: int, max_rounds: int
) -> Clarification:
    """Ask up to three questions, or declare the request ready.

    Args:
        model: The chat model.
        request: The user's request.
        answers: Questions asked in earlier rounds with the user's answers.
        round: This round's number, starting at 1.
        max_rounds: The last round; it never asks questions.

    Returns:
        The clarification. ``ready`` is True exactly when ``questions`` is empty.
    """
    answered = section("Answers so far", render_answers(answers))
    user = CLARIFY_USER.format(
        request=request.strip(), answers=answered, round=round, max_rounds=max_rounds
    )
    try:
        result = model.generate(conversation(CLARIFY_SYSTEM, user), Clarification, CLARIFY_SETTINGS)
    except StructuredOutputError as exc:
        logger.warning("clarify: no valid reply (%s); proceeding without questions", exc)
        result = Clarification(reply="I will proceed with reasonable assumptions.", ready=True)
    return _settle(result, final=round >= max_rounds)


def _settle(result: Clarification, *, final: bool) -> Clarification:
    questions = [q.strip() for q in result.questions if q.strip()][:MAX_QUESTIONS]
    if final or result.ready or not questions:
        questions = []
    return result.model_copy(
        update={
            "questions": questions,
            "ready": not questions,
            "assumptions": _unique(result.assumptions),
            "reply": result.reply.strip(),
        }
    )


ANALYST_EXAMPLES_MAX = 12
"""Examples in the analyst's reply, bounded by constrained decoding (``maxItems``): a
1.5B model ran on to the spec's limit of 24 (js-slugify, 736 tokens, 258 s on 2 cores),
and the spec keeps only the user's examples and three more
(:func:`codeproof.contract.spec_examples.fewer_invented`); the user's own are read again
from their words for each module, so none is lost when the list is cut."""


class SpecReply(Spec):
    """The analyst's reply: a :class:`Spec` whose example list is bounded tighter."""

    acceptance_examples: list[str] = Field(
        default_factory=list,
        max_length=ANALYST_EXAMPLES_MAX,
        description="Concrete input -> expected output examples.",
    )


def analyze(
    model: ChatModel,
    request: str,
    answers: list[QA],
    *,
    language: str | None,
    assumptions: list[str],
) -> Spec:
    """Write the specification of ``request``.

    Args:
        model: The chat model.
        request: The user's request.
        answers: Clarifying questions with the user's answers.
        language: The language the user chose; None lets the request decide (default
            Python).
        assumptions: Assumptions the user accepted; they are kept in the spec.

    Raises:
        StructuredOutputError: The model gave no valid specification.
    """
    rule = (
        f'"{normalize_language(language)}" (fixed by the user).'
        if language
        else f'{_choices()}; the one the request names, else "{registry.default().name}".'
    )
    details = join_sections(
        section("Answers", render_answers(answers)),
        section("Assumptions accepted by the user", "\n".join(f"- {a}" for a in assumptions)),
    )
    user = ANALYZE_USER.format(request=request.strip(), details=details)
    system = ANALYZE_SYSTEM.format(language_rule=rule, example_form=EXAMPLE_FORM)
    messages = conversation(system, user)
    reply = model.generate(messages, SpecReply, ANALYZE_SETTINGS)
    spec = Spec.model_validate(reply.model_dump())
    return _normalize_spec(spec, language=language, assumptions=assumptions)


def _choices() -> str:
    """The known languages as the prompt lists them: ``"a", "b" or "c"``."""
    quoted = [f'"{name}"' for name in registry.names()]
    return " or ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)


def _unique(items: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for item in (i.strip() for i in items):
        if item and item.lower() not in seen:
            seen.add(item.lower())
            out.append(item)
    return out


def _normalize_spec(spec: Spec, *, language: str | None, assumptions: list[str]) -> Spec:
    chosen = normalize_language(language or spec.language or registry.default().name)
    return spec.model_copy(
        update={
            "title": spec.title.strip() or "Untitled",
            "summary": spec.summary.strip(),
            "language": chosen,
            "functional_requirements": _unique(spec.functional_requirements),
            "interfaces": _unique(spec.interfaces),
            "constraints": _unique(spec.constraints),
            "acceptance_examples": [
                e for e in _unique(spec.acceptance_examples) if e.lower() != EXAMPLE_FORM
            ],
            "assumptions": _unique([*assumptions, *spec.assumptions]),
        }
    )
