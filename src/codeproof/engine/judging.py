"""The default answers of the proof's questions, read in the user's words.

A question's default (what ``--yes`` and the evaluation take, and what an interactive
run suggests) is what most drafts return (:func:`codeproof.proof.questions.questions`).
Before it is taken, the judge (:mod:`codeproof.agents.judge`) reads the user's words on
that input; a reading against the default is asked again with every answer in another
place (the order turned by one), and only when both name the same answer does it become
the default (a small model's pick among letters leans on their order: two orders
agreeing is the reading, not the position). Calls are spent only where a reading is
against the current default.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from codeproof.agents import judge
from codeproof.core.errors import ContextLengthError
from codeproof.core.proof import ProofQuestion
from codeproof.engine.context import Context
from codeproof.engine.drafting import scope
from codeproof.engine.state import Work
from codeproof.proof.questions import shown

logger = logging.getLogger(__name__)


def read_defaults(
    ctx: Context, work: Work, questions: Sequence[ProofQuestion]
) -> list[ProofQuestion]:
    """``questions`` with each default the judge reads in the user's words, where it
    reads one (in both orders) and it is not the default already."""
    if not ctx.options.read_defaults or not ctx.words.strip():
        return list(questions)
    return [_read(ctx, work, k, q) for k, q in enumerate(questions)]


def _read(ctx: Context, work: Work, k: int, question: ProofQuestion) -> ProofQuestion:
    values = [c.value for c in question.choices]
    first = _pick(ctx, work, f"q{k}", question.call, values)
    if first is None or first == question.default:
        return question
    second = _pick(ctx, work, f"q{k}r", question.call, _turned(values))
    if second != first:
        logger.info("%s: %s: no reading in both orders", ctx.module.name, question.call)
        return question
    logger.info(
        "%s: %s: the request reads %s, not %s (most drafts)",
        ctx.module.name,
        question.call,
        shown(first),
        shown(question.default),
    )
    return question.model_copy(update={"default": first, "read": True})


def _turned(values: list[str]) -> list[str]:
    """``values`` with every one in another place (turned by one): reversed, the middle
    of three answers stays the middle, and a judge always saying "B" read it twice."""
    return [*values[1:], *values[:1]]


def _pick(ctx: Context, work: Work, name: str, call: str, values: list[str]) -> str | None:
    model = ctx.model_for(f"{scope('judge', ctx, work)}:{name}")
    answers = [shown(v) for v in values]
    try:
        index = judge.pick(model, ctx.words, call, answers, language=ctx.module.language)
    except ContextLengthError as exc:  # the request alone fills the model's context
        logger.warning("%s: no reading of %s: %s", ctx.module.name, call, exc)
        return None
    return values[index] if index is not None else None
