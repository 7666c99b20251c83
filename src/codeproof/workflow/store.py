"""The run store: one SQLite file holding the run index, the audit trail, the replay
memo of completed LLM calls, and LangGraph's checkpoints.

Tables (besides LangGraph's own)::

    runs(id, request, status, created, updated, out_dir, reason, options, pid)
    events(run_id, seq, ts, kind, payload)      # the audit trail
    llm_memo(run_id, call_id, kind, result)     # completed LLM calls, replayed on re-run

The store is safe to use from several threads (parallel graph branches record
LLM calls concurrently); every write is its own transaction.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from langgraph.checkpoint.sqlite import SqliteSaver
from pydantic import BaseModel, Field

from codeproof.core.errors import InputError
from codeproof.core.sqlite import connect

logger = logging.getLogger(__name__)

RunStatus = Literal["running", "paused", "waiting", "done", "failed"]
EventKind = Literal[
    "node_start", "node_end", "llm_call", "tool_call", "decision", "error", "retrieval"
]
DB_NAME = "runs.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    request TEXT NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    out_dir TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    options TEXT NOT NULL DEFAULT '{}',
    pid INTEGER
);
CREATE TABLE IF NOT EXISTS events (
    run_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    ts REAL NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
CREATE TABLE IF NOT EXISTS llm_memo (
    run_id TEXT NOT NULL,
    call_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (run_id, call_id)
);
"""


class RunInfo(BaseModel):
    """One row of the run index."""

    id: str
    request: str
    status: RunStatus
    created: float
    updated: float
    out_dir: str
    reason: str = ""
    options: dict[str, Any] = Field(default_factory=dict)
    pid: int | None = None

    @property
    def created_iso(self) -> str:
        return datetime.fromtimestamp(self.created, UTC).strftime("%Y-%m-%d %H:%M:%S")

    @property
    def orphaned(self) -> bool:
        """Marked running or waiting, but its process is gone (crash, kill -9)."""
        return self.status in ("running", "waiting") and not (
            self.pid is not None and process_alive(self.pid)
        )


def process_alive(pid: int) -> bool:
    """Whether a process with this id exists (on this machine)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Event(BaseModel):
    """One audit-trail entry."""

    run_id: str
    seq: int
    ts: float
    kind: EventKind
    payload: dict[str, Any]


EventListener = Callable[[Event], None]


def new_run_id() -> str:
    """A short, sortable, unique run id (UTC date + random suffix)."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]


class RunStore:
    """Run index, audit trail and LLM replay memo in ``<runs_dir>/runs.sqlite3``.

    Use as a context manager (or call :meth:`open` / :meth:`close`).
    """

    def __init__(self, runs_dir: Path) -> None:
        self.path = runs_dir / DB_NAME
        self._conn: sqlite3.Connection | None = None
        self._saver_conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()
        self._listeners: list[EventListener] = []

    # -- lifecycle -------------------------------------------------------------------

    def open(self) -> RunStore:
        """Create the directory and tables if needed and connect."""
        if self._conn is None:
            self._conn = connect(self.path, _SCHEMA, synchronous_normal=True)
        return self

    def close(self) -> None:
        """Close both connections; idempotent."""
        with self._lock:
            for conn in (self._conn, self._saver_conn):
                if conn is not None:
                    conn.close()
            self._conn = None
            self._saver_conn = None

    def __enter__(self) -> RunStore:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            self.open()
        assert self._conn is not None
        return self._conn

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            conn = self.conn
            try:
                yield conn
                conn.commit()
            except BaseException:
                conn.rollback()
                raise

    def checkpointer(self) -> SqliteSaver:
        """LangGraph's checkpointer on the same database file (its own connection)."""
        if self._saver_conn is None:
            self.open()
            self._saver_conn = sqlite3.connect(self.path, check_same_thread=False, timeout=30.0)
        saver = SqliteSaver(self._saver_conn)
        saver.setup()
        return saver

    # -- runs ------------------------------------------------------------------------

    def create_run(
        self, run_id: str, request: str, out_dir: str, options: dict[str, Any]
    ) -> RunInfo:
        now = time.time()
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO runs (id, request, status, created, updated, out_dir, options, pid)"
                " VALUES (?, ?, 'running', ?, ?, ?, ?, ?)",
                (run_id, request, now, now, out_dir, json.dumps(options), os.getpid()),
            )
        return self.get_run(run_id)

    def set_status(
        self, run_id: str, status: RunStatus, reason: str = "", *, claim: bool = False
    ) -> None:
        """Update a run's status (and take ownership with this process's pid if ``claim``)."""
        with self._tx() as conn:
            if claim:
                conn.execute(
                    "UPDATE runs SET status=?, reason=?, updated=?, pid=? WHERE id=?",
                    (status, reason, time.time(), os.getpid(), run_id),
                )
            else:
                conn.execute(
                    "UPDATE runs SET status=?, reason=?, updated=? WHERE id=?",
                    (status, reason, time.time(), run_id),
                )

    def set_options(self, run_id: str, options: dict[str, Any]) -> None:
        """Replace a run's stored options (``resume --yes`` answers the rest by default)."""
        with self._tx() as conn:
            conn.execute(
                "UPDATE runs SET options=?, updated=? WHERE id=?",
                (json.dumps(options), time.time(), run_id),
            )

    def get_run(self, run_id: str) -> RunInfo:
        """The run with this id (a unique prefix is accepted).

        Raises:
            InputError: No run, or an ambiguous prefix.
        """
        with self._lock:
            rows = self.conn.execute(
                "SELECT id, request, status, created, updated, out_dir, reason, options, pid "
                "FROM runs WHERE id = ? OR id LIKE ? ORDER BY id",
                (run_id, run_id.replace("%", "") + "%"),
            ).fetchall()
        exact = [r for r in rows if r[0] == run_id]
        rows = exact or rows
        if not rows:
            raise InputError(f"no run {run_id!r}", hint="see `codeproof runs list`")
        if len(rows) > 1:
            raise InputError(
                f"run id prefix {run_id!r} is ambiguous", hint="give more characters of the id"
            )
        return _run_from_row(rows[0])

    def list_runs(self, limit: int = 50) -> list[RunInfo]:
        with self._lock:
            rows = self.conn.execute(
                "SELECT id, request, status, created, updated, out_dir, reason, options, pid "
                "FROM runs ORDER BY created DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [_run_from_row(r) for r in rows]

    def delete_run(self, run_id: str) -> None:
        """Forget a run: its row, audit trail, replay memo and checkpoints (exact id)."""
        with self._tx() as conn:
            for table, key in (("runs", "id"), ("events", "run_id"), ("llm_memo", "run_id")):
                conn.execute(f"DELETE FROM {table} WHERE {key} = ?", (run_id,))
        self.checkpointer().delete_thread(run_id)

    # -- audit trail -----------------------------------------------------------------

    def subscribe(self, listener: EventListener) -> None:
        """Call ``listener`` for every event recorded from now on (any thread)."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: EventListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def add_event(self, run_id: str, kind: EventKind, payload: dict[str, Any]) -> Event:
        """Append one event to the run's audit trail and notify listeners."""
        ts = time.time()
        data = json.dumps(payload, default=str)
        with self._tx() as conn:
            row = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE run_id = ?", (run_id,)
            ).fetchone()
            seq = int(row[0])
            conn.execute(
                "INSERT INTO events (run_id, seq, ts, kind, payload) VALUES (?, ?, ?, ?, ?)",
                (run_id, seq, ts, kind, data),
            )
        event = Event(run_id=run_id, seq=seq, ts=ts, kind=kind, payload=json.loads(data))
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a broken display must not break the run
                logger.exception("event listener failed")
        return event

    def events(self, run_id: str, kind: EventKind | None = None) -> list[Event]:
        """The run's audit trail in order (optionally one kind only)."""
        sql = "SELECT run_id, seq, ts, kind, payload FROM events WHERE run_id = ?"
        args: tuple[Any, ...] = (run_id,)
        if kind is not None:
            sql += " AND kind = ?"
            args = (run_id, kind)
        with self._lock:
            rows = self.conn.execute(sql + " ORDER BY seq", args).fetchall()
        return [
            Event(run_id=r[0], seq=r[1], ts=r[2], kind=r[3], payload=json.loads(r[4])) for r in rows
        ]

    # -- LLM replay memo -------------------------------------------------------------

    def memo_get(self, run_id: str, call_id: str) -> str | None:
        """The stored result of a completed LLM call, or ``None``."""
        with self._lock:
            row = self.conn.execute(
                "SELECT result FROM llm_memo WHERE run_id = ? AND call_id = ?", (run_id, call_id)
            ).fetchone()
        return None if row is None else str(row[0])

    def memo_put(self, run_id: str, call_id: str, kind: str, result: str) -> None:
        with self._tx() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO llm_memo (run_id, call_id, kind, result) VALUES (?,?,?,?)",
                (run_id, call_id, kind, result),
            )

    # -- human decisions -------------------------------------------------------------

    def decision_for(self, run_id: str, interrupt_id: str) -> dict[str, Any] | None:
        """The recorded answer to an interrupt, if the human already gave one."""
        for event in reversed(self.events(run_id, "decision")):
            if event.payload.get("interrupt_id") == interrupt_id:
                value = event.payload.get("value")
                return value if isinstance(value, dict) else None
        return None


def _run_from_row(row: tuple[Any, ...]) -> RunInfo:
    return RunInfo(
        id=row[0],
        request=row[1],
        status=row[2],
        created=row[3],
        updated=row[4],
        out_dir=row[5],
        reason=row[6],
        options=json.loads(row[7]),
        pid=row[8],
    )
