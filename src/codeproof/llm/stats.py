"""Per-model counters: calls, cache hits, tokens, cost and latency (thread-safe)."""

from __future__ import annotations

import logging
import threading

from pydantic import BaseModel

from codeproof.llm.base import ChatResponse, Message

logger = logging.getLogger(__name__)


class StatsSnapshot(BaseModel):
    """A frozen copy of :class:`ModelStats` at one moment."""

    calls: int = 0
    cache_hits: int = 0
    cache_misses: int = 0
    errors: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    """Prompt tokens the engine reused from its prompt cache (not processed again)."""
    draft_tokens: int = 0
    """Tokens proposed by speculative decoding."""
    draft_accepted: int = 0
    """Of those, the ones the model accepted."""
    cost_usd: float = 0.0
    latency_s: float = 0.0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class ModelStats:
    """Counters of one model object, shared by every thread that uses it.

    ``calls`` counts every ``chat``/``stream``/``generate`` attempt that reached the
    model or the cache; ``cache_hits + cache_misses`` counts cache look-ups (zero when
    the cache is off or the temperature is not 0). Tokens, cost and latency add up real
    requests only; cached replies cost nothing.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._data = StatsSnapshot()

    def record_response(self, response: ChatResponse) -> None:
        """Count one completed call (cached or not)."""
        with self._lock:
            d = self._data
            d.calls += 1
            if response.cached:
                return
            u = response.usage
            d.prompt_tokens += u.prompt_tokens
            d.completion_tokens += u.completion_tokens
            d.cached_prompt_tokens += u.cached_prompt_tokens
            d.draft_tokens += u.draft_tokens
            d.draft_accepted += u.draft_accepted
            d.cost_usd += response.cost_usd
            d.latency_s += response.latency_s

    def record_cache(self, *, hit: bool) -> None:
        """Count one cache look-up."""
        with self._lock:
            if hit:
                self._data.cache_hits += 1
            else:
                self._data.cache_misses += 1

    def record_error(self) -> None:
        """Count one call that failed after its retries."""
        with self._lock:
            self._data.errors += 1

    def record_retry(self) -> None:
        """Count one retry of a transient failure."""
        with self._lock:
            self._data.retries += 1

    def snapshot(self) -> StatsSnapshot:
        """A consistent copy of the counters."""
        with self._lock:
            return self._data.model_copy()

    def reset(self) -> StatsSnapshot:
        """Zero the counters; return their values before the reset."""
        with self._lock:
            old, self._data = self._data, StatsSnapshot()
            return old


def log_request(messages: list[Message], response: ChatResponse) -> None:
    """One debug line per request that reached the model: what the prompt cost and what
    the engine reused (the role is the system message's first words)."""
    if not logger.isEnabledFor(logging.DEBUG):
        return
    role = next((m.content for m in messages if m.role == "system"), "")
    u = response.usage
    logger.debug(
        "request %r: %d prompt tokens (%d reused), %d completion tokens, %.1f s, %s",
        " ".join(role.split()[:6]),
        u.prompt_tokens,
        u.cached_prompt_tokens,
        u.completion_tokens,
        response.latency_s,
        response.finish_reason,
    )
