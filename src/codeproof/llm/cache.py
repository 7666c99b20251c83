"""SQLite response cache shared by every provider.

Keys are the sha256 of a canonical JSON document holding the provider, model,
messages, generation settings and structured-output schema (if any). Greedy calls
(temperature 0) and seeded samples are cached: the same prompt with the same seed is the
same sample, so an identical rerun is answered from the cache. An unseeded sample at a
higher temperature is expected to vary and is never cached.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from typing import Any

from codeproof.core.sqlite import LazyDatabase
from codeproof.llm.base import ChatResponse, ChatSettings, Message

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    response TEXT NOT NULL,
    created REAL NOT NULL
)
"""


def cache_key(
    provider: str,
    model: str,
    messages: Sequence[Message],
    settings: ChatSettings,
    schema: dict[str, Any] | None = None,
) -> str:
    """sha256 over everything that determines a reply."""
    doc = {
        "provider": provider,
        "model": model,
        "messages": [m.model_dump() for m in messages],
        "settings": settings.model_dump(),
        "schema": schema,
    }
    blob = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def cacheable(settings: ChatSettings) -> bool:
    """Whether a call with these settings may be answered from the cache."""
    return settings.temperature == 0.0 or settings.seed is not None


class ResponseCache(LazyDatabase):
    """A thread-safe, process-safe (SQLite WAL) key → :class:`ChatResponse` store."""

    SCHEMA = _SCHEMA

    def get(self, key: str) -> ChatResponse | None:
        """The stored response, or ``None``."""
        row = self.one("SELECT response FROM responses WHERE key = ?", (key,))
        return None if row is None else ChatResponse.model_validate_json(row[0])

    def put(self, key: str, response: ChatResponse) -> None:
        """Store (or replace) a response."""
        self.write(
            "INSERT OR REPLACE INTO responses (key, provider, model, response, created) "
            "VALUES (?, ?, ?, ?, ?)",
            (key, response.provider, response.model, response.model_dump_json(), time.time()),
        )

    def __len__(self) -> int:
        row = self.one("SELECT COUNT(*) FROM responses")
        return int(row[0]) if row else 0

    def clear(self) -> None:
        """Delete every stored response."""
        self.write("DELETE FROM responses")
