"""Behaviour shared by every provider: cache, stats, retries, latency, cost, structured output.

A provider subclasses :class:`BaseChatModel` and implements two small hooks:
:meth:`BaseChatModel._complete` (one request) and :meth:`BaseChatModel._stream`
(one streamed request). Everything else lives here, once.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from typing import ClassVar, TypeVar

from pydantic import BaseModel, ValidationError
from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
)

from codeproof.core.errors import (
    StructuredOutputError,
)
from codeproof.core.lifecycle import Lifecycle
from codeproof.llm import loops, structured
from codeproof.llm.base import ChatResponse, ChatSettings, Message, Usage
from codeproof.llm.cache import ResponseCache, cache_key, cacheable
from codeproof.llm.guard import ensure_real_requests_allowed
from codeproof.llm.hooks import ChatStream, Completion, JsonSchema, StreamChunk, is_transient
from codeproof.llm.pricing import cost_usd
from codeproof.llm.stats import ModelStats, log_request

logger = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)
R = TypeVar("R")


class BaseChatModel(Lifecycle, ABC):
    """Base class of every provider (implements the ``ChatModel`` protocol).

    Args:
        name: Provider name (``local``, ``openai``...).
        model: Model identifier as the provider knows it.
        slots: Requests the provider serves concurrently.
        defaults: Settings used when a call passes none.
        cache: Response cache; ``None`` disables caching.
        max_retries: Retries of transient failures (unreachable, timeout, 429, 5xx).
        retry_wait_s: First backoff delay; doubles each retry (capped at 8 s).
    """

    #: Real providers are subject to the test guard (see :mod:`codeproof.llm.guard`).
    real: ClassVar[bool] = True

    def __init__(
        self,
        *,
        name: str,
        model: str,
        slots: int = 1,
        defaults: ChatSettings | None = None,
        cache: ResponseCache | None = None,
        max_retries: int = 3,
        retry_wait_s: float = 0.5,
    ) -> None:
        self._name = name
        self._model = model
        self._slots = slots
        self.defaults = defaults or ChatSettings()
        self.cache = cache
        self.max_retries = max_retries
        self.retry_wait_s = retry_wait_s
        self.stats = ModelStats()
        self._interrupted = threading.Event()

    # -- protocol properties -------------------------------------------------------

    @property
    def name(self) -> str:
        return self._name

    @property
    def model(self) -> str:
        return self._model

    @property
    def slots(self) -> int:
        return self._slots

    @property
    def context_window(self) -> int | None:
        return None

    # -- lifecycle ---------------------------------------------------------------

    def start(self) -> None:
        """Acquire resources (load weights, open clients). Idempotent."""

    def check(self) -> None:
        """Fail now on what :meth:`start` would fail on (a missing model, a bad
        setting), acquiring as little as possible: the first request the cache cannot
        answer starts the model. Default: :meth:`start`."""
        self.start()

    def close(self) -> None:
        """Release resources. Idempotent."""

    def interrupt(self) -> None:
        """The user stopped the run (Ctrl-C): every later request raises
        ``KeyboardInterrupt``, and a provider that decodes in-process stops its requests in
        flight at their next token (a reply may take minutes on a small CPU; the threads
        running them would otherwise hold the interrupted process until they end).
        Safe to call from a signal handler and from any thread; final for this object."""
        self._interrupted.set()

    @property
    def interrupted(self) -> bool:
        """Whether :meth:`interrupt` was called."""
        return self._interrupted.is_set()

    def interruption(self) -> KeyboardInterrupt:
        """What a request raises once :meth:`interrupt` was called."""
        return KeyboardInterrupt(f"{self.name}: the run was interrupted")

    @property
    def decoding_here(self) -> bool:
        """Whether the calling thread is inside a request that checks :attr:`interrupted`
        at each token (and then raises ``KeyboardInterrupt`` itself): a signal handler
        raising there would raise inside the decoder's callback, which ignores it."""
        return False

    # -- provider hooks ----------------------------------------------------------

    @abstractmethod
    def _complete(
        self, messages: list[Message], settings: ChatSettings, schema: JsonSchema | None
    ) -> Completion:
        """One request; ``schema`` asks for constrained JSON output where supported.

        Raise :mod:`codeproof.core.errors` classes (converted from SDK errors).
        """

    @abstractmethod
    def _stream(self, messages: list[Message], settings: ChatSettings) -> Iterator[StreamChunk]:
        """One streamed request."""

    # -- public API --------------------------------------------------------------

    def chat(
        self, messages: Sequence[Message], settings: ChatSettings | None = None
    ) -> ChatResponse:
        """One completion (from the cache when possible)."""
        return self._respond(list(messages), settings or self.defaults, None)

    def stream(
        self, messages: Sequence[Message], settings: ChatSettings | None = None
    ) -> ChatStream:
        """Yield text pieces; the returned stream's ``response`` is set at the end."""
        msgs, s = list(messages), settings or self.defaults
        key, hit = self._lookup(msgs, s, None)
        if hit is not None:
            stream = ChatStream(iter([hit.text] if hit.text else []))
            stream.response = hit
            return stream
        self._before_request()
        return self._streaming(msgs, s, key)

    def generate(
        self,
        messages: Sequence[Message],
        schema: type[T],
        settings: ChatSettings | None = None,
    ) -> T:
        """A validated ``schema`` instance; one re-ask, then StructuredOutputError.

        The re-ask shows the invalid reply and the error, except when the reply was cut
        at the token limit: then the question is asked again, sampled. A reply stopped
        in a decoding loop is first read as what it wrote before the loop (closed).
        """
        s = settings or self.defaults
        js = structured.json_schema_of(schema)
        msgs = structured.with_schema_instruction(messages, js)
        first = self._respond(msgs, s, js)
        try:
            return structured.parse_reply(first.text, schema)
        except ValidationError as exc:
            error = structured.describe_error(exc)
        kept = self._before_loop(first, schema)
        if kept is not None:
            return kept
        logger.info(
            "%s: reply failed %s validation (%s); re-asking", self.name, schema.__name__, error
        )
        if first.finish_reason == "length":
            # Cut at the token limit: typically a greedy loop inside one JSON string.
            # Feeding it back would loop again; ask afresh, sampled, to leave the loop.
            resample = s.model_copy(update={"temperature": max(s.temperature, 0.7), "seed": 1})
            second = self._respond(msgs, resample, js)
        else:
            second = self._respond(structured.repair_messages(msgs, first.text, error), s, js)
        try:
            return structured.parse_reply(second.text, schema)
        except ValidationError as exc:
            kept = self._before_loop(second, schema)
            if kept is not None:
                return kept
            raise StructuredOutputError(
                f"the model's {structured.reply_name(schema)} was not valid twice "
                f"(asked again once): {structured.describe_error(exc)}",
                provider=self.name,
                raw=second.text,
                schema=json.dumps(js),
            ) from exc

    def _before_loop(self, reply: ChatResponse, schema: type[T]) -> T | None:
        """What a reply stopped in a decoding loop wrote before it, closed and validated;
        None when it was not cut, ends in no loop, or that is no valid ``schema``."""
        start = loops.loop_start(reply.text) if reply.finish_reason == "length" else None
        prefix = None if start is None else structured.closed_prefix(reply.text, start)
        if prefix is None:
            return None
        try:
            kept = structured.parse_reply(prefix, schema)
        except ValidationError:
            return None
        logger.info(
            "%s: kept the %s written before a decoding loop (%d of %d characters)",
            self.name,
            schema.__name__,
            len(prefix),
            len(reply.text),
        )
        return kept

    # -- internals ---------------------------------------------------------------

    def _before_request(self) -> None:
        if self.interrupted:
            raise self.interruption()
        if self.real:
            ensure_real_requests_allowed(self.name)
        self.start()

    def _lookup(
        self, messages: list[Message], settings: ChatSettings, schema: JsonSchema | None
    ) -> tuple[str | None, ChatResponse | None]:
        if self.cache is None or not cacheable(settings):
            return None, None
        t0 = time.perf_counter()
        key = cache_key(self.name, self.model, messages, settings, schema)
        stored = self.cache.get(key)
        self.stats.record_cache(hit=stored is not None)
        if stored is None:
            return key, None
        hit = stored.model_copy(
            update={"cached": True, "cost_usd": 0.0, "latency_s": time.perf_counter() - t0}
        )
        self.stats.record_response(hit)
        return key, hit

    def _finish(self, key: str | None, response: ChatResponse) -> ChatResponse:
        if key is not None and self.cache is not None:
            self.cache.put(key, response)
        self.stats.record_response(response)
        return response

    def _response(
        self, text: str, usage: Usage, latency: float, finish: str | None
    ) -> ChatResponse:
        return ChatResponse(
            text=text,
            usage=usage,
            latency_s=latency,
            cost_usd=cost_usd(self.name, self.model, usage),
            provider=self.name,
            model=self.model,
            finish_reason=finish,
        )

    def _respond(
        self, messages: list[Message], settings: ChatSettings, schema: JsonSchema | None
    ) -> ChatResponse:
        key, hit = self._lookup(messages, settings, schema)
        if hit is not None:
            return hit
        self._before_request()
        t0 = time.perf_counter()
        done = self._retrying(lambda: self._complete(messages, settings, schema))
        latency = time.perf_counter() - t0
        response = self._response(done.text, done.usage, latency, done.finish_reason)
        log_request(messages, response)
        return self._finish(key, response)

    def _streaming(
        self, messages: list[Message], settings: ChatSettings, key: str | None
    ) -> ChatStream:
        def opened() -> tuple[Iterator[StreamChunk], StreamChunk | None]:
            chunks = self._stream(messages, settings)
            return chunks, next(chunks, None)

        def pieces() -> Iterator[str]:
            t0 = time.perf_counter()
            chunks, first = self._retrying(opened)
            text: list[str] = []
            usage: Usage | None = None
            finish: str | None = None
            current = first
            while current is not None:
                if current.text:
                    text.append(current.text)
                    yield current.text
                usage = current.usage or usage
                finish = current.finish_reason or finish
                current = next(chunks, None)
            latency = time.perf_counter() - t0
            full = "".join(text)
            final = usage or Usage(completion_tokens=len(text))
            stream.response = self._finish(key, self._response(full, final, latency, finish))

        stream = ChatStream(pieces())
        return stream

    def _retrying(self, call: Callable[[], R]) -> R:
        def before_sleep(state: RetryCallState) -> None:
            self.stats.record_retry()
            outcome = state.outcome
            logger.warning(
                "%s: transient failure (%s); retry %d/%d",
                self.name,
                outcome.exception() if outcome else "?",
                state.attempt_number,
                self.max_retries,
            )

        retrying = Retrying(
            stop=stop_after_attempt(self.max_retries + 1),
            wait=wait_exponential(multiplier=self.retry_wait_s, max=8.0),
            retry=retry_if_exception(is_transient),
            before_sleep=before_sleep,
            reraise=True,
        )
        try:
            return retrying(call)
        except Exception:
            self.stats.record_error()
            raise
