"""The server's own SQLite file (``server.sqlite3`` beside ``runs.sqlite3``).

Tables::

    tokens(id, name, user, sha256, created, last_used, revoked)   # API tokens (hash only)
    sessions(sha256, user, csrf, expires)                         # web page sessions
    threads(id, owner, created, updated, metadata, status)        # LangGraph threads
    api_runs(id, thread_id, owner, status, created, updated, payload, attempt, error, cancel,
             pid)                                                  # pid: the process running it
    stream_events(run_id, seq, ts, event, data)                   # every streamed event

A thread is a codeproof run (same id in the run store); an API run is one stretch of it,
from its input or an answer to the next question or the end. One connection, used from
any thread under a lock; every write is its own transaction.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from codeproof.core.sqlite import connect

DB_NAME = "server.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tokens (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    user TEXT NOT NULL,
    sha256 TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    last_used REAL,
    revoked REAL
);
CREATE TABLE IF NOT EXISTS sessions (
    sha256 TEXT PRIMARY KEY,
    user TEXT NOT NULL,
    csrf TEXT NOT NULL,
    expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS threads (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    metadata TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'idle'
);
CREATE INDEX IF NOT EXISTS threads_owner ON threads (owner, updated);
CREATE TABLE IF NOT EXISTS api_runs (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL,
    owner TEXT NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    payload TEXT NOT NULL,
    attempt INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    cancel INTEGER NOT NULL DEFAULT 0,
    pid INTEGER
);
CREATE INDEX IF NOT EXISTS api_runs_thread ON api_runs (thread_id, created);
CREATE INDEX IF NOT EXISTS api_runs_owner ON api_runs (owner, status, created);
CREATE TABLE IF NOT EXISTS stream_events (
    run_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    ts REAL NOT NULL,
    event TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
"""


class ServerDB:
    """``<runs_dir>/server.sqlite3``; use as a context manager (or open/close)."""

    def __init__(self, runs_dir: Path) -> None:
        self.path = runs_dir / DB_NAME
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()

    def open(self) -> ServerDB:
        """Create the file and tables if needed and connect; idempotent."""
        with self._lock:
            if self._conn is None:
                self._conn = connect(self.path, _SCHEMA, synchronous_normal=True)
        return self

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
            self._conn = None

    def __enter__(self) -> ServerDB:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (committed on success, rolled back on any error)."""
        with self._lock:
            conn = self._connection()
            try:
                yield conn
                conn.commit()
            except BaseException:
                conn.rollback()
                raise

    def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return list(self._connection().execute(sql, args).fetchall())

    def row(self, sql: str, args: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
        found = self.rows(sql, args)
        return found[0] if found else None

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self.open()
        assert self._conn is not None
        return self._conn
