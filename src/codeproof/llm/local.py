"""The ``local`` provider: llama.cpp embedded in-process through ``xllamacpp``.

The weights load lazily in :meth:`LocalChatModel.start` (or on first use). Loaded
servers live in a process-wide pool (:mod:`codeproof.llm.llama_pool`), so every
provider object, agent and test in the process shares one copy. ``llm.slots``
parallel slots let several agents decode at once (continuous batching); the prompt
prefix cache is on. The context window is split between slots: each request may use
``ctx_size / slots`` tokens.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from codeproof.core.errors import ContextLengthError, LLMError, ProviderResponseError
from codeproof.llm.base import ChatSettings, Message, Usage
from codeproof.llm.cache import ResponseCache
from codeproof.llm.hooks import Completion, JsonSchema, StreamChunk
from codeproof.llm.llama_pool import (
    POOL,
    PROVIDER,
    SPECULATIVE,
    Engine,
    EngineParams,
    physical_cores,
)
from codeproof.llm.loops import LoopWatch
from codeproof.llm.provider import BaseChatModel

logger = logging.getLogger(__name__)


def _check(reply: Any) -> dict[str, Any]:
    """Raise the codeproof error for a llama.cpp error reply."""
    if not isinstance(reply, dict):
        raise ProviderResponseError(
            f"llama.cpp returned {type(reply).__name__}", provider=PROVIDER, hint="report a bug"
        )
    error = reply.get("error")
    if error is None:
        return reply
    raise _error(error if isinstance(error, dict) else {"message": str(error)})


def _error(error: dict[str, Any]) -> LLMError:
    code = error.get("code")
    status = code if isinstance(code, int) else None
    if error.get("type") == "exceed_context_size_error":
        return ContextLengthError(
            str(error.get("message", "prompt exceeds the context window")),
            provider=PROVIDER,
            status_code=status,
            hint="raise llm.ctx_size (it is split between llm.slots) or shorten the input",
        )
    return ProviderResponseError(
        str(error.get("message", error)),
        provider=PROVIDER,
        status_code=status,
        hint="check the request settings",
    )


def _usage(reply: dict[str, Any]) -> Usage:
    """Usage from a reply's ``usage``, else (a stopped stream) from its ``timings``."""
    timings = reply.get("timings") or {}
    u = reply.get("usage") or {
        "prompt_tokens": int(timings.get("cache_n", 0)) + int(timings.get("prompt_n", 0)),
        "completion_tokens": int(timings.get("predicted_n", 0)),
    }
    return Usage(
        prompt_tokens=int(u.get("prompt_tokens", 0)),
        completion_tokens=int(u.get("completion_tokens", 0)),
        cached_prompt_tokens=int(timings.get("cache_n", 0)),
        draft_tokens=int(timings.get("draft_n", 0)),
        draft_accepted=int(timings.get("draft_n_accepted", 0)),
    )


class LocalChatModel(BaseChatModel):
    """llama.cpp in this process.

    Args:
        model: Catalogue name, ``.gguf`` path or pulled URL (``llm.model``).
        resolve: Turns ``model`` into a GGUF path (the models manager's ``resolve``).
        ctx_size: Total context, split between slots.
        slots: Parallel decoding slots (at least 1; 2 or more for agents).
        threads: CPU threads; physical cores when ``None``.
        speculative: Speculative decoding (:data:`SPECULATIVE`): ``none`` or ``ngram``.
        defaults, cache: See :class:`BaseChatModel`.
    """

    def __init__(
        self,
        *,
        model: str,
        resolve: Callable[[str], Path],
        ctx_size: int = 8192,
        slots: int = 2,
        threads: int | None = None,
        speculative: str = "none",
        defaults: ChatSettings | None = None,
        cache: ResponseCache | None = None,
    ) -> None:
        if speculative not in SPECULATIVE:
            raise ValueError(f"speculative must be one of {', '.join(SPECULATIVE)}")
        super().__init__(
            name=PROVIDER, model=model, slots=slots, defaults=defaults, cache=cache, max_retries=0
        )
        self._resolve = resolve
        self.ctx_size = ctx_size
        self.threads = threads
        self.speculative = speculative
        self._params: EngineParams | None = None
        self._engine: Engine | None = None
        self._lock = threading.Lock()
        self._here = threading.local()

    @property
    def context_window(self) -> int:
        """The window is split between the slots."""
        return self.ctx_size // self.slots

    @property
    def decoding_here(self) -> bool:
        return bool(getattr(self._here, "decoding", False))

    @property
    def engine(self) -> Engine:
        """The loaded engine (loads it if needed)."""
        self.start()
        assert self._engine is not None
        return self._engine

    @property
    def server(self) -> Any:
        """The loaded ``xllamacpp.Server``."""
        return self.engine.server

    @property
    def base_url(self) -> str:
        """OpenAI-compatible HTTP root of the embedded server (loopback, needs ``api_key``)."""
        return f"{self.server.listening_address}/v1"

    @property
    def api_key(self) -> str:
        """Bearer key of the embedded HTTP endpoint."""
        return self.engine.api_key

    def start(self) -> None:
        with self._lock:
            if self._engine is not None:
                return
            params = EngineParams(
                path=str(self._resolve(self.model)),
                ctx_size=self.ctx_size,
                slots=self.slots,
                threads=self.threads or physical_cores(),
                speculative=self.speculative,
            )
            self._engine = POOL.acquire(params)
            self._params = params

    def check(self) -> None:
        """Find (and verify) the weights without loading them: a run whose calls the
        response cache answers never loads the model."""
        self._resolve(self.model)

    def close(self) -> None:
        with self._lock:
            if self._params is not None:
                POOL.release(self._params)
            self._engine, self._params = None, None

    def _request(self, messages: list[Message], settings: ChatSettings) -> dict[str, Any]:
        body: dict[str, Any] = {
            "messages": [m.model_dump() for m in messages],
            "max_tokens": settings.max_tokens,
            "temperature": settings.temperature,
            "cache_prompt": True,
        }
        if settings.top_p is not None:
            body["top_p"] = settings.top_p
        if settings.seed is not None:
            body["seed"] = settings.seed
        if settings.stop:
            body["stop"] = settings.stop
        return body

    def _call(self, body: dict[str, Any], callback: Callable[[Any], bool] | None = None) -> Any:
        try:
            if callback is None:
                return self.server.handle_chat_completions(body)
            return self.server.handle_chat_completions(body, callback)
        except ValueError as exc:
            raise ProviderResponseError(
                f"llama.cpp rejected the request: {exc}",
                provider=PROVIDER,
                status_code=400,
                hint="check the request settings",
            ) from exc

    def _complete(
        self, messages: list[Message], settings: ChatSettings, schema: JsonSchema | None
    ) -> Completion:
        body = self._request(messages, settings)
        if schema is not None:
            body["response_format"] = {"type": "json_schema", "json_schema": {"schema": schema}}
        # Streamed, so that a decoding loop is stopped as it starts (llm/loops.py);
        # every chunk carries the timings, which give the usage of a stopped reply.
        body.update(stream=True, stream_options={"include_usage": True}, timings_per_token=True)
        chunks: list[Any] = []
        watch = LoopWatch(growth=schema is not None)
        raised: list[BaseException] = []

        def on_chunk(chunk: Any) -> bool:
            # xllamacpp ignores an exception raised in the callback (a Ctrl-C lands here
            # when this is the main thread): keep it, stop decoding, raise it below.
            try:
                chunks.append(chunk)
                return watch.add(_delta(chunk)) or self.interrupted
            except BaseException as exc:
                raised.append(exc)
                return True

        self._here.decoding = True
        try:
            returned = self._call(body, on_chunk)
        finally:
            self._here.decoding = False
        if raised:
            raise raised[0]
        if self.interrupted:
            raise self.interruption()
        if isinstance(returned, dict) and "error" in returned:
            chunks.append(returned)
        return _collected(chunks, looped=watch.looped)

    def _stream(self, messages: list[Message], settings: ChatSettings) -> Iterator[StreamChunk]:
        body = {
            **self._request(messages, settings),
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        pieces: queue.Queue[dict[str, Any] | BaseException | None] = queue.Queue()
        stop = threading.Event()

        def on_chunk(chunk: Any) -> bool:
            pieces.put(chunk)
            return stop.is_set() or self.interrupted

        def run() -> None:
            try:
                self._call(body, on_chunk)
                pieces.put(None)
            except BaseException as exc:  # handed to the consumer thread
                pieces.put(exc)

        worker = threading.Thread(target=run, name="llama-stream", daemon=True)
        worker.start()
        try:
            while (item := pieces.get()) is not None:
                if isinstance(item, BaseException):
                    raise item
                yield _chunk(_check(item))
            if self.interrupted:  # the reply is partial: never a response (nor cached)
                raise self.interruption()
        finally:
            stop.set()
            worker.join()


def _delta(chunk: Any) -> str:
    """The text of one streamed chunk ("" for anything else)."""
    if not isinstance(chunk, dict) or not chunk.get("choices"):
        return ""
    return str((chunk["choices"][0].get("delta") or {}).get("content") or "")


def _collected(chunks: list[Any], *, looped: bool) -> Completion:
    """One reply from its streamed chunks; a reply stopped in a loop is reported cut."""
    text, finish, usage = [], None, Usage()
    for chunk in chunks:
        event = _check(chunk)
        text.append(_delta(event))
        if event.get("choices"):
            finish = event["choices"][0].get("finish_reason") or finish
        if event.get("usage") or event.get("timings"):
            usage = _usage(event)
    if looped:
        logger.info("llama.cpp: stopped a decoding loop after %d tokens", usage.completion_tokens)
        finish = "length"
    return Completion("".join(text), usage, finish)


def _chunk(event: dict[str, Any]) -> StreamChunk:
    usage = _usage(event) if event.get("usage") else None
    text, finish = "", None
    if event.get("choices"):
        choice = event["choices"][0]
        text = (choice.get("delta") or {}).get("content") or ""
        finish = choice.get("finish_reason")
    return StreamChunk(text, usage, finish)
