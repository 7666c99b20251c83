"""Structured output shared by every provider: instruction, validation, repair re-ask."""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from codeproof.llm.base import Message

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"^```(?:json)?\s*\n(?P<body>.*?)\n?```\s*$", re.DOTALL)


def json_schema_of(schema: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of a pydantic model (a copy: the caller may change it)."""
    return copy.deepcopy(_schema_of(schema))


@functools.cache
def _schema_of(schema: type[BaseModel]) -> dict[str, Any]:
    """Generated once per model class (3 ms each time: a fifth of a scripted run's model
    calls went to it)."""
    return schema.model_json_schema()


def reply_name(schema: type[BaseModel]) -> str:
    """The kind of reply ``schema`` describes, in words a user reads in an error:
    ``SpecReply`` -> "spec reply", ``ModulePlan`` -> "module plan"."""
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", schema.__name__)
    return " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in words)


def with_schema_instruction(messages: Sequence[Message], schema: dict[str, Any]) -> list[Message]:
    """Messages plus a system instruction to reply with one JSON object of ``schema``."""
    instruction = (
        "Reply with one JSON object only, no prose and no code fence. It must match this "
        f"JSON schema:\n{json.dumps(schema, separators=(',', ':'))}"
    )
    out = list(messages)
    if out and out[0].role == "system":
        out[0] = Message(role="system", content=f"{out[0].content}\n\n{instruction}")
    else:
        out.insert(0, Message(role="system", content=instruction))
    return out


def parse_reply(raw: str, schema: type[T]) -> T:
    """Validate a reply (tolerating a surrounding code fence) against ``schema``.

    Raises:
        ValidationError: The reply is not valid JSON or does not match the schema.
    """
    text = raw.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group("body").strip()
    return schema.model_validate_json(text)


_CLOSERS = {"[": "]", "{": "}"}


def closed_prefix(text: str, end: int) -> str | None:
    """The JSON in ``text`` up to its last whole array element or object member before
    ``end``, with the brackets still open there closed; None when there is none.

    A reply stopped in a decoding loop keeps what it wrote before the loop: a spec whose
    examples fell into a loop keeps its requirements and interfaces and the examples
    before the loop, rather than paying for another reply that may loop again.
    """
    best: tuple[int, str] | None = None  # where the last whole element ends, its closers
    stack: list[str] = []
    in_string = escaped = False
    begin = min((at for at in (text.find("{"), text.find("[")) if at >= 0), default=end)
    text = text[begin:end]
    for at, char in enumerate(text):
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in _CLOSERS:
            stack.append(_CLOSERS[char])
        elif char in "]}" and stack:
            stack.pop()
            if not stack:
                return text[: at + 1]
        elif char == "," and stack:
            best = (at, "".join(reversed(stack)))
    return None if best is None else text[: best[0]] + best[1]


def describe_error(exc: ValidationError) -> str:
    """A compact description of what failed, for the repair message."""
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err["loc"]) or "(root)"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def repair_messages(messages: Sequence[Message], raw: str, error: str) -> list[Message]:
    """The conversation for the one re-ask: previous reply plus the validation error."""
    return [
        *messages,
        Message(role="assistant", content=raw),
        Message(
            role="user",
            content=f"Your reply was invalid: {error}. Reply again with the corrected JSON "
            "object only.",
        ),
    ]
