"""A ChatModel wrapper that audits every call and replays completed ones.

Each call gets a deterministic id: a hash of the node scope (node, module, round,
attempt), the messages, the settings and the schema, plus the call's occurrence
number within the scope. A completed call's result is stored in the run store; when a
node runs again (after an interrupt, a crash or ``kill -9``) the stored result is
returned instead of asking the model, so no completed call is paid twice.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from codeproof.core.errors import StructuredOutputError
from codeproof.llm.base import ChatModel, ChatResponse, ChatSettings, Message, Usage
from codeproof.llm.stats import ModelStats, StatsSnapshot
from codeproof.llm.structured import json_schema_of
from codeproof.workflow.store import RunStore

T = TypeVar("T", bound=BaseModel)


def _digest(*parts: Any) -> str:
    blob = json.dumps(parts, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def _dump_messages(messages: Sequence[Message]) -> list[dict[str, str]]:
    return [{"role": m.role, "content": m.content} for m in messages]


class RecordingModel:
    """Delegates to ``inner``; records and replays calls of one node execution.

    Args:
        inner: The real provider (any ChatModel, including FakeModel).
        store: Where call results and audit events go.
        run_id: The run the calls belong to.
        scope: Deterministic name of the node execution, e.g. ``repair:slugify:r0:a2``.
    """

    def __init__(self, inner: ChatModel, store: RunStore, run_id: str, scope: str) -> None:
        self.inner = inner
        self.store = store
        self.run_id = run_id
        self.scope = scope
        self._lock = threading.Lock()
        self._seen: dict[str, int] = {}

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def model(self) -> str:
        return self.inner.model

    @property
    def slots(self) -> int:
        return self.inner.slots

    @property
    def context_window(self) -> int | None:
        return self.inner.context_window

    def _call_id(self, kind: str, messages: Sequence[Message], extra: Any) -> str:
        base = _digest(self.scope, kind, _dump_messages(messages), extra)
        with self._lock:
            n = self._seen.get(base, 0)
            self._seen[base] = n + 1
        return f"{base}-{n}"

    def _record(
        self,
        call_id: str,
        kind: str,
        messages: Sequence[Message],
        reply: str,
        *,
        usage: Usage,
        latency_s: float,
        cost_usd: float,
        cached: bool,
        replayed: bool,
        error: str | None = None,
    ) -> None:
        self.store.add_event(
            self.run_id,
            "llm_call",
            {
                "call_id": call_id,
                "scope": self.scope,
                "kind": kind,
                "provider": self.inner.name,
                "model": self.inner.model,
                "prompt": _dump_messages(messages),
                "reply": reply,
                "prompt_tokens": usage.prompt_tokens,
                "completion_tokens": usage.completion_tokens,
                "cached_prompt_tokens": usage.cached_prompt_tokens,
                "draft_tokens": usage.draft_tokens,
                "draft_accepted": usage.draft_accepted,
                "latency_s": round(latency_s, 4),
                "cost_usd": cost_usd,
                "cached": cached,
                "replayed": replayed,
                **({"error": error} if error else {}),
            },
        )

    def chat(
        self, messages: Sequence[Message], settings: ChatSettings | None = None
    ) -> ChatResponse:
        call_id = self._call_id("chat", messages, settings.model_dump() if settings else None)
        stored = self.store.memo_get(self.run_id, call_id)
        if stored is not None:
            response = ChatResponse.model_validate_json(stored)
            self._record_response(call_id, "chat", messages, response, replayed=True)
            return response
        response = self.inner.chat(messages, settings)
        self.store.memo_put(self.run_id, call_id, "chat", response.model_dump_json())
        self._record_response(call_id, "chat", messages, response, replayed=False)
        return response

    def _record_response(
        self,
        call_id: str,
        kind: str,
        messages: Sequence[Message],
        response: ChatResponse,
        *,
        replayed: bool,
    ) -> None:
        self._record(
            call_id,
            kind,
            messages,
            response.text,
            usage=response.usage if not replayed else Usage(),
            latency_s=response.latency_s if not replayed else 0.0,
            cost_usd=response.cost_usd if not replayed else 0.0,
            cached=response.cached,
            replayed=replayed,
        )

    def stream(
        self, messages: Sequence[Message], settings: ChatSettings | None = None
    ) -> Iterator[str]:
        call_id = self._call_id("stream", messages, settings.model_dump() if settings else None)
        stored = self.store.memo_get(self.run_id, call_id)
        if stored is not None:
            response = ChatResponse.model_validate_json(stored)
            self._record_response(call_id, "stream", messages, response, replayed=True)
            yield response.text
            return
        t0 = time.perf_counter()
        before = self._stats()
        pieces: list[str] = []
        for piece in self.inner.stream(messages, settings):
            pieces.append(piece)
            yield piece
        delta = self._delta(before)
        response = ChatResponse(
            text="".join(pieces),
            usage=Usage(
                prompt_tokens=delta.prompt_tokens if delta else 0,
                completion_tokens=delta.completion_tokens if delta else len(pieces),
            ),
            latency_s=time.perf_counter() - t0,
            cost_usd=delta.cost_usd if delta else 0.0,
            cached=bool(delta and delta.cache_hits and not delta.cache_misses),
            provider=self.inner.name,
            model=self.inner.model,
        )
        self.store.memo_put(self.run_id, call_id, "stream", response.model_dump_json())
        self._record_response(call_id, "stream", messages, response, replayed=False)

    def generate(
        self,
        messages: Sequence[Message],
        schema: type[T],
        settings: ChatSettings | None = None,
    ) -> T:
        extra = [schema.__name__, json_schema_of(schema), settings and settings.model_dump()]
        call_id = self._call_id("generate", messages, extra)
        stored = self.store.memo_get(self.run_id, call_id)
        if stored is not None:
            result = schema.model_validate_json(stored)
            self._record(
                call_id,
                "generate",
                messages,
                stored,
                usage=Usage(),
                latency_s=0.0,
                cost_usd=0.0,
                cached=False,
                replayed=True,
            )
            return result
        t0 = time.perf_counter()
        before = self._stats()
        try:
            result = self.inner.generate(messages, schema, settings)
        except StructuredOutputError as exc:  # paid for: the audit trail keeps the reply
            self._record_generate(call_id, messages, exc.raw or "", t0, before, str(exc))
            raise
        text = result.model_dump_json()
        self.store.memo_put(self.run_id, call_id, "generate", text)
        self._record_generate(call_id, messages, text, t0, before, None)
        return result

    def _record_generate(
        self,
        call_id: str,
        messages: Sequence[Message],
        text: str,
        t0: float,
        before: StatsSnapshot | None,
        error: str | None,
    ) -> None:
        delta = self._delta(before)
        self._record(
            call_id,
            "generate",
            messages,
            text,
            usage=Usage(
                prompt_tokens=delta.prompt_tokens if delta else 0,
                completion_tokens=delta.completion_tokens if delta else 0,
            ),
            latency_s=time.perf_counter() - t0,
            cost_usd=delta.cost_usd if delta else 0.0,
            cached=bool(delta and delta.cache_hits and not delta.cache_misses),
            replayed=False,
            error=error,
        )

    def _stats(self) -> StatsSnapshot | None:
        stats = getattr(self.inner, "stats", None)
        return stats.snapshot() if isinstance(stats, ModelStats) else None

    def _delta(self, before: StatsSnapshot | None) -> StatsSnapshot | None:
        """Counters added since ``before`` (approximate when threads share the model)."""
        after = self._stats()
        if before is None or after is None:
            return None
        return StatsSnapshot(
            calls=after.calls - before.calls,
            cache_hits=after.cache_hits - before.cache_hits,
            cache_misses=after.cache_misses - before.cache_misses,
            prompt_tokens=after.prompt_tokens - before.prompt_tokens,
            completion_tokens=after.completion_tokens - before.completion_tokens,
            cost_usd=after.cost_usd - before.cost_usd,
        )
