"""One way to open codeproof's SQLite files (runs, caches, the server's tables)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


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
