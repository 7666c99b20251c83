"""A scripted :class:`ChatModel` for orchestration tests (no model, no network).

Two ways to script it::

    FakeModel(["first reply", lambda msgs: "second reply", {"as": "json"}])
    FakeModel(rules=[(lambda msgs: "plan" in msgs[-1].content, '{"steps": []}')])

A list is consumed in order, one entry per request; rules are tried in order on every
request and are never consumed. A reply is a string, a dict or pydantic model (sent as
JSON), or a callable ``(messages) -> reply``; a :class:`Sampled` callable also gets the
request's settings (temperature, seed), to script sampled replies. Every request is recorded in
:attr:`FakeModel.calls`. Structured output, the re-ask, the cache and the stats behave
exactly as with real providers because they are shared (see :mod:`.provider`).
"""

from __future__ import annotations

import json
import re
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from codeproof.llm.base import ChatSettings, Message, Usage
from codeproof.llm.cache import ResponseCache
from codeproof.llm.hooks import Completion, JsonSchema, StreamChunk
from codeproof.llm.provider import BaseChatModel


@dataclass(frozen=True)
class Sampled:
    """A reply that depends on the request's settings: ``fn(messages, settings)``."""

    fn: Callable[[list[Message], ChatSettings], Any]


Reply = str | dict[str, Any] | BaseModel | Callable[[list[Message]], Any] | Sampled
Predicate = Callable[[list[Message]], bool]


def said(messages: Sequence[Message]) -> str:
    """All the text of a conversation, system message first: what a rule looks in for the
    role asked, wherever the role's prompt puts its instructions."""
    return "\n\n".join(m.content for m in messages)


class FakeScriptExhaustedError(RuntimeError):
    """The fake was asked more than its script holds (a test bug, not a product error)."""


@dataclass(frozen=True)
class FakeCall:
    """One recorded request."""

    messages: list[Message]
    settings: ChatSettings
    schema: JsonSchema | None


def _words(text: str) -> int:
    return len(text.split())


class FakeModel(BaseChatModel):
    """Scripted chat model. Thread-safe.

    Args:
        script: Replies consumed in order. A list of ``(predicate, reply)`` tuples is
            taken as ``rules``.
        rules: ``(predicate, reply)`` pairs; the first matching one answers.
        slots: Reported concurrency.
        model: Reported model name.
        cache: Optional response cache (off by default so every call is recorded).
        max_retries: Retries of transient errors raised by callable replies.
        context_window: The window it reports (``None``: unknown, as remote providers).
    """

    real = False

    def __init__(
        self,
        script: Sequence[Reply] | Sequence[tuple[Predicate, Reply]] = (),
        *,
        rules: Sequence[tuple[Predicate, Reply]] = (),
        slots: int = 2,
        model: str = "fake",
        cache: ResponseCache | None = None,
        max_retries: int = 0,
        context_window: int | None = None,
    ) -> None:
        self._window = context_window
        super().__init__(
            name="fake",
            model=model,
            slots=slots,
            cache=cache,
            max_retries=max_retries,
            retry_wait_s=0.0,
        )
        items = list(script)
        if items and all(isinstance(item, tuple) for item in items):
            rules = [*rules, *items]  # type: ignore[list-item]
            items = []
        self._replies: deque[Reply] = deque(items)  # type: ignore[arg-type]
        self._rules: list[tuple[Predicate, Reply]] = list(rules)
        self._lock = threading.Lock()
        self.calls: list[FakeCall] = []

    @property
    def context_window(self) -> int | None:
        return self._window

    @property
    def remaining(self) -> int:
        """Scripted replies not consumed yet (rules not counted)."""
        with self._lock:
            return len(self._replies)

    def _next_reply(self, messages: list[Message]) -> Reply:
        with self._lock:
            for predicate, reply in self._rules:
                if predicate(messages):
                    return reply
            if self._replies:
                return self._replies.popleft()
            asked = len(self.calls) - 1
        last = messages[-1].content[:200] if messages else ""
        raise FakeScriptExhaustedError(
            f"FakeModel script exhausted after {asked} answered call(s); no reply for: {last!r}"
        )

    def _render(self, reply: Reply, messages: list[Message], settings: ChatSettings) -> str:
        if isinstance(reply, Sampled):
            value = reply.fn(messages, settings)
        else:
            value = reply(messages) if callable(reply) else reply
        if isinstance(value, BaseModel):
            return value.model_dump_json()
        if isinstance(value, dict | list):
            return json.dumps(value)
        return str(value)

    def _answer(
        self, messages: list[Message], settings: ChatSettings, schema: JsonSchema | None
    ) -> str:
        with self._lock:
            self.calls.append(FakeCall(list(messages), settings, schema))
        return self._render(self._next_reply(messages), messages, settings)

    def _complete(
        self, messages: list[Message], settings: ChatSettings, schema: JsonSchema | None
    ) -> Completion:
        text = self._answer(messages, settings, schema)
        prompt = sum(_words(m.content) for m in messages)
        return Completion(text, Usage(prompt_tokens=prompt, completion_tokens=_words(text)), "stop")

    def _stream(self, messages: list[Message], settings: ChatSettings) -> Iterator[StreamChunk]:
        text = self._answer(messages, settings, None)
        prompt = sum(_words(m.content) for m in messages)
        for piece in re.findall(r"\s*\S+\s*", text) or [text]:
            yield StreamChunk(piece)
        yield StreamChunk(
            usage=Usage(prompt_tokens=prompt, completion_tokens=_words(text)), finish_reason="stop"
        )
