"""The stream event log: every event a run streams, stored before it is sent.

An SSE client gets events by their number (``id:``), so a client that reconnects with
``Last-Event-ID`` gets exactly the events after it, from the database: nothing lost,
nothing twice, also after the server was killed and started again. Waiting readers are
woken through a :class:`Notifier` (in-process; a distributed queue would wake them
through its broker instead).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import defaultdict
from typing import Any

from pydantic import BaseModel

from codeproof.server.db import ServerDB

TERMINAL = frozenset({"end", "error"})
"""Events after which a run's stream closes."""


class StreamEvent(BaseModel):
    """One stored event of a run's stream."""

    run_id: str
    seq: int
    ts: float
    event: str
    data: Any


class Notifier:
    """Wakes asyncio readers (any loop) when a worker thread appends to a run's stream."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = (
            defaultdict(set)
        )

    def waiter(self, run_id: str) -> asyncio.Event:
        """An event set at the next append to ``run_id`` (call :meth:`drop` when done)."""
        event = asyncio.Event()
        with self._lock:
            self._waiters[run_id].add((asyncio.get_running_loop(), event))
        return event

    def drop(self, run_id: str, event: asyncio.Event) -> None:
        with self._lock:
            waiters = self._waiters.get(run_id, set())
            for item in [w for w in waiters if w[1] is event]:
                waiters.discard(item)
            if not waiters:
                self._waiters.pop(run_id, None)

    def notify(self, run_id: str) -> None:
        with self._lock:
            waiters = list(self._waiters.get(run_id, ()))
        for loop, event in waiters:
            if not loop.is_closed():
                loop.call_soon_threadsafe(event.set)


class EventLog:
    """Append and read the streams of API runs."""

    def __init__(self, db: ServerDB, notifier: Notifier | None = None) -> None:
        self.db = db
        self.notifier = notifier or Notifier()

    def append(self, run_id: str, event: str, data: Any) -> StreamEvent:
        """Store one event (numbered 1, 2, ... per run) and wake the readers."""
        text = json.dumps(data, default=str, separators=(",", ":"))
        ts = time.time()
        with self.db.tx() as conn:
            row = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM stream_events WHERE run_id = ?", (run_id,)
            ).fetchone()
            seq = int(row[0])
            conn.execute(
                "INSERT INTO stream_events (run_id, seq, ts, event, data) VALUES (?, ?, ?, ?, ?)",
                (run_id, seq, ts, event, text),
            )
        self.notifier.notify(run_id)
        return StreamEvent(run_id=run_id, seq=seq, ts=ts, event=event, data=json.loads(text))

    def read(self, run_id: str, after: int = 0, limit: int = 500) -> list[StreamEvent]:
        """Events of ``run_id`` numbered above ``after``, in order."""
        rows = self.db.rows(
            "SELECT seq, ts, event, data FROM stream_events WHERE run_id = ? AND seq > ? "
            "ORDER BY seq LIMIT ?",
            (run_id, after, limit),
        )
        return [
            StreamEvent(run_id=run_id, seq=r[0], ts=r[1], event=r[2], data=json.loads(r[3]))
            for r in rows
        ]

    def last(self, run_id: str) -> StreamEvent | None:
        rows = self.db.rows(
            "SELECT seq, ts, event, data FROM stream_events WHERE run_id = ? "
            "ORDER BY seq DESC LIMIT 1",
            (run_id,),
        )
        if not rows:
            return None
        r = rows[0]
        return StreamEvent(run_id=run_id, seq=r[0], ts=r[1], event=r[2], data=json.loads(r[3]))

    def delete(self, run_ids: list[str]) -> None:
        with self.db.tx() as conn:
            conn.executemany("DELETE FROM stream_events WHERE run_id = ?", [(r,) for r in run_ids])
