"""One way to open codeproof's SQLite files (runs, caches, the server's tables)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any, ClassVar


def connect(path: Path, schema: str, *, synchronous_normal: bool = False) -> sqlite3.Connection:
    """A connection to ``path`` (its directory and ``schema``'s tables created if needed),
    in WAL mode so that several processes read and write it at once; usable from any
    thread (callers hold their own lock) and waiting up to 30 s for another writer.

    ``synchronous_normal`` trades durability of the last commits on power loss for
    speed (WAL keeps the file consistent either way)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, check_same_thread=False, timeout=30.0)
    conn.execute("PRAGMA journal_mode=WAL")
    if synchronous_normal:
        conn.execute("PRAGMA synchronous=NORMAL")
    conn.executescript(schema)
    conn.commit()
    return conn


class LazyDatabase:
    """A SQLite file opened on first use (never in the constructor), shared by threads
    under one lock, closed by :meth:`close` (it reopens on next use).

    Subclasses set :attr:`SCHEMA` and query through :meth:`one` and :meth:`write`.
    """

    SCHEMA: ClassVar[str] = ""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = connect(self.path, self.SCHEMA)
        return self._conn

    def one(self, sql: str, params: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
        """The first row of a query, or ``None``."""
        with self._lock:
            row: tuple[Any, ...] | None = self._connection().execute(sql, params).fetchone()
        return row

    def write(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """Run one statement and commit it."""
        with self._lock:
            conn = self._connection()
            conn.execute(sql, params)
            conn.commit()

    def close(self) -> None:
        """Close the database (it reopens on next use)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
