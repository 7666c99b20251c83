"""The judge: which of the drafts' answers on one input the user's words ask for.

Where the drafts return different results on an input and nobody answers the proof's
question (``--yes``, the evaluation), the answer taken was what most drafts return. A
majority of drafts can share a misreading that the request's own words rule out (the
README demo request: two of three drafts gave ``slugify('Hello, World!')`` as
``'hello--world'``, and the request says runs of separators become one hyphen). This
role reads the user's words, never any code, and names the answer they ask for, as a
letter among the answers the drafts gave; the engine asks twice, the answers in two
orders, and takes a reading only when both name the same answer
(:mod:`codeproof.engine.judging`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from codeproof.agents.prompting import conversation
from codeproof.llm.base import ChatModel, ChatSettings

logger = logging.getLogger(__name__)

JUDGE_SYSTEM = """You read requests for {language} code and say what they ask for. You \
answer with one letter."""

JUDGE_USER = """The request:

{words}

By the request's own words, what does `{call}` give?

{options}

Answer with the letter of the answer the request asks for."""

LETTERS = "ABCDEFGH"
"""The answers a question may offer at most, one letter each."""

_LETTER = re.compile(r"[A-Z]")


def pick(
    model: ChatModel, words: str, call: str, answers: Sequence[str], *, language: str
) -> int | None:
    """The index in ``answers`` of the one the judge says ``words`` ask for on ``call``,
    or ``None`` when its reply names no offered letter (or there are too many answers to
    letter)."""
    if not 2 <= len(answers) <= len(LETTERS):
        return None
    options = "\n".join(f"{LETTERS[i]}) {answer}" for i, answer in enumerate(answers))
    user = JUDGE_USER.format(words=words.strip(), call=call, options=options)
    messages = conversation(JUDGE_SYSTEM.format(language=language), user)
    reply = model.chat(messages, ChatSettings(temperature=0.0, max_tokens=3)).text
    return letter_index(reply, len(answers))


def letter_index(reply: str, count: int) -> int | None:
    """The answer a reply names: its first capital letter, when one of the first
    ``count`` letters (``"B"``, ``"B)"``, ``"**B**"``); else ``None``."""
    found = _LETTER.search(reply)
    if found is None or found.group() not in LETTERS[:count]:
        logger.info("judge: no offered letter in %r", reply[:40])
        return None
    return LETTERS.index(found.group())
