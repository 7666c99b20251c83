"""Threads and API runs in the server database, always looked up with their owner.

A thread of another user is reported exactly like a missing one (404), so nobody learns
which thread ids exist.
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from typing import Any, Literal

from pydantic import BaseModel, Field

from codeproof.core.errors import ConflictError, InputError, NotFoundError, RateLimitError
from codeproof.server.db import ServerDB
from codeproof.workflow.store import new_run_id, process_alive

ThreadStatus = Literal["idle", "busy", "interrupted", "error"]
ApiRunStatus = Literal["pending", "running", "error", "success", "timeout", "interrupted"]
ACTIVE: tuple[ApiRunStatus, ...] = ("pending", "running")
ID_RULE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


class ThreadRow(BaseModel):
    id: str
    owner: str
    created: float
    updated: float
    metadata: dict[str, Any] = Field(default_factory=dict)
    status: ThreadStatus = "idle"


class ApiRun(BaseModel):
    """One run of the protocol: a stretch of a thread's codeproof run."""

    id: str
    thread_id: str
    owner: str
    status: ApiRunStatus
    created: float
    updated: float
    payload: dict[str, Any]
    attempt: int = 0
    error: str | None = None
    cancel: bool = False
    pid: int | None = None
    """The server process that queued or runs it (another live one's runs are left alone)."""


class Limits(BaseModel):
    """Per-user limits on creating runs."""

    runs_per_minute: int
    max_active_runs: int


_THREAD_COLS = "id, owner, created, updated, metadata, status"
_RUN_COLS = "id, thread_id, owner, status, created, updated, payload, attempt, error, cancel, pid"


class ThreadStore:
    """CRUD of threads and API runs."""

    def __init__(self, db: ServerDB) -> None:
        self.db = db

    # -- threads -----------------------------------------------------------------------

    def create_thread(
        self,
        owner: str,
        thread_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        *,
        if_exists: Literal["raise", "do_nothing"] = "raise",
    ) -> ThreadRow:
        """A new thread of ``owner``.

        Raises:
            InputError: A malformed id.
            ConflictError: The id is taken (and ``if_exists`` is ``raise``, or the thread
                is another user's).
        """
        tid = thread_id or new_run_id()
        if not ID_RULE.fullmatch(tid):
            raise InputError(
                f"invalid thread id {tid!r}",
                hint="use 1-64 letters, digits, '_' or '-' (or leave it out)",
            )
        now = time.time()
        with self.db.tx() as conn:
            existing = conn.execute("SELECT owner FROM threads WHERE id = ?", (tid,)).fetchone()
            if existing is None:
                conn.execute(
                    f"INSERT INTO threads ({_THREAD_COLS}) VALUES (?, ?, ?, ?, ?, 'idle')",
                    (tid, owner, now, now, json.dumps(metadata or {})),
                )
            elif existing[0] != owner or if_exists == "raise":
                raise ConflictError(f"thread {tid} exists", hint="create it without a thread_id")
        return self.get_thread(owner, tid)

    def get_thread(self, owner: str, thread_id: str) -> ThreadRow:
        """The thread, if ``owner`` owns it.

        Raises:
            NotFoundError: No such thread for this user.
        """
        row = self.db.row(
            f"SELECT {_THREAD_COLS} FROM threads WHERE id = ? AND owner = ?", (thread_id, owner)
        )
        if row is None:
            raise NotFoundError(f"no thread {thread_id!r}", hint="see POST /threads/search")
        return _thread(row)

    def search(
        self,
        owner: str,
        *,
        metadata: dict[str, Any] | None = None,
        status: str | None = None,
        ids: list[str] | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[ThreadRow]:
        """The owner's threads, newest first, filtered by metadata, status and ids."""
        rows = self.db.rows(
            f"SELECT {_THREAD_COLS} FROM threads WHERE owner = ? ORDER BY created DESC", (owner,)
        )
        found = [_thread(r) for r in rows]
        if metadata:
            found = [t for t in found if all(t.metadata.get(k) == v for k, v in metadata.items())]
        if status:
            found = [t for t in found if t.status == status]
        if ids is not None:
            found = [t for t in found if t.id in ids]
        return found[offset : offset + limit]

    def set_thread_status(self, thread_id: str, status: ThreadStatus) -> None:
        with self.db.tx() as conn:
            conn.execute(
                "UPDATE threads SET status = ?, updated = ? WHERE id = ?",
                (status, time.time(), thread_id),
            )

    def delete_thread(self, owner: str, thread_id: str) -> list[str]:
        """Delete the thread and its runs; the ids of the deleted runs.

        Raises:
            NotFoundError: No such thread for this user.
            ConflictError: A run of it is pending or running.
        """
        self.get_thread(owner, thread_id)
        with self.db.tx() as conn:
            runs = conn.execute(
                "SELECT id, status FROM api_runs WHERE thread_id = ?", (thread_id,)
            ).fetchall()
            if any(r[1] in ACTIVE for r in runs):
                raise ConflictError(
                    f"thread {thread_id} has a run in progress", hint="cancel it first"
                )
            conn.execute("DELETE FROM api_runs WHERE thread_id = ?", (thread_id,))
            conn.execute("DELETE FROM threads WHERE id = ?", (thread_id,))
        return [str(r[0]) for r in runs]

    # -- runs --------------------------------------------------------------------------

    def add_run(
        self, owner: str, thread_id: str, payload: dict[str, Any], limits: Limits
    ) -> ApiRun:
        """A pending run on the thread, within the owner's limits (one transaction).

        Raises:
            NotFoundError: No such thread for this user.
            ConflictError: The thread already has a run pending or running.
            RateLimitError: Over the user's rate or concurrency limit.
        """
        now = time.time()
        run_id = str(uuid.uuid4())
        marks = ",".join("?" for _ in ACTIVE)
        with self.db.tx() as conn:
            if not conn.execute(
                "SELECT 1 FROM threads WHERE id = ? AND owner = ?", (thread_id, owner)
            ).fetchone():
                raise NotFoundError(f"no thread {thread_id!r}", hint="see POST /threads/search")
            if conn.execute(
                f"SELECT 1 FROM api_runs WHERE thread_id = ? AND status IN ({marks})",
                (thread_id, *ACTIVE),
            ).fetchone():
                raise ConflictError(
                    f"thread {thread_id} already has a run in progress",
                    hint="wait for it (runs.join) or cancel it",
                )
            _check_limits(conn, owner, now, limits)
            conn.execute(
                f"INSERT INTO api_runs ({_RUN_COLS})"
                " VALUES (?, ?, ?, 'pending', ?, ?, ?, 0, NULL, 0, ?)",
                (run_id, thread_id, owner, now, now, json.dumps(payload), os.getpid()),
            )
            conn.execute(
                "UPDATE threads SET status = 'busy', updated = ? WHERE id = ?", (now, thread_id)
            )
        return self.run(run_id)

    def run(self, run_id: str) -> ApiRun:
        row = self.db.row(f"SELECT {_RUN_COLS} FROM api_runs WHERE id = ?", (run_id,))
        if row is None:
            raise NotFoundError(f"no run {run_id!r}")
        return _run(row)

    def get_run(self, owner: str, thread_id: str, run_id: str) -> ApiRun:
        """The run, if it is of this thread and owner.

        Raises:
            NotFoundError: No such run for this user.
        """
        row = self.db.row(
            f"SELECT {_RUN_COLS} FROM api_runs WHERE id = ? AND thread_id = ? AND owner = ?",
            (run_id, thread_id, owner),
        )
        if row is None:
            raise NotFoundError(f"no run {run_id!r} on thread {thread_id!r}")
        return _run(row)

    def list_runs(
        self, thread_id: str, *, status: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[ApiRun]:
        rows = self.db.rows(
            f"SELECT {_RUN_COLS} FROM api_runs WHERE thread_id = ? AND (? IS NULL OR status = ?)"
            " ORDER BY created DESC LIMIT ? OFFSET ?",
            (thread_id, status, status, limit, offset),
        )
        return [_run(r) for r in rows]

    def latest_run(self, thread_id: str) -> ApiRun | None:
        runs = self.list_runs(thread_id, limit=1)
        return runs[0] if runs else None

    def begin_attempt(self, run_id: str) -> ApiRun | None:
        """Claim the run for this process, mark it running and count the attempt (a
        restart makes it 2, 3, ...); ``None`` if it is finished or another live server
        process has it."""
        with self.db.tx() as conn:
            row = conn.execute(
                "SELECT status, pid FROM api_runs WHERE id = ?", (run_id,)
            ).fetchone()
            if row is None or row[0] not in ACTIVE or not _ours_or_orphaned(row[1]):
                return None
            conn.execute(
                "UPDATE api_runs SET status = 'running', attempt = attempt + 1, updated = ?, "
                "pid = ? WHERE id = ?",
                (time.time(), os.getpid(), run_id),
            )
        return self.run(run_id)

    def finish_run(
        self,
        run: ApiRun,
        status: ApiRunStatus,
        thread_status: ThreadStatus,
        error: str | None = None,
    ) -> None:
        """Set the run's final status and its thread's status together."""
        now = time.time()
        with self.db.tx() as conn:
            conn.execute(
                "UPDATE api_runs SET status = ?, error = ?, updated = ? WHERE id = ?",
                (status, error, now, run.id),
            )
            conn.execute(
                "UPDATE threads SET status = ?, updated = ? WHERE id = ?",
                (thread_status, now, run.thread_id),
            )

    def request_cancel(self, run: ApiRun) -> None:
        with self.db.tx() as conn:
            conn.execute("UPDATE api_runs SET cancel = 1 WHERE id = ?", (run.id,))

    def cancel_requested(self, run_id: str) -> bool:
        row = self.db.row("SELECT cancel FROM api_runs WHERE id = ?", (run_id,))
        return bool(row and row[0])

    def unfinished(self) -> list[ApiRun]:
        """Runs pending or running whose process is gone (or is this one), oldest first:
        what a starting server runs again."""
        marks = ",".join("?" for _ in ACTIVE)
        rows = self.db.rows(
            f"SELECT {_RUN_COLS} FROM api_runs WHERE status IN ({marks}) ORDER BY created",
            ACTIVE,
        )
        return [run for run in map(_run, rows) if _ours_or_orphaned(run.pid)]


def _ours_or_orphaned(pid: int | None) -> bool:
    return pid is None or pid == os.getpid() or not process_alive(pid)


def _check_limits(conn: Any, owner: str, now: float, limits: Limits) -> None:
    marks = ",".join("?" for _ in ACTIVE)
    active = conn.execute(
        f"SELECT COUNT(*) FROM api_runs WHERE owner = ? AND status IN ({marks})", (owner, *ACTIVE)
    ).fetchone()[0]
    if active >= limits.max_active_runs:
        raise RateLimitError(
            f"{active} runs of yours are in progress (limit {limits.max_active_runs})",
            retry_after_s=10,
            hint="wait for one to finish, or raise server.max_active_runs",
        )
    recent = conn.execute(
        "SELECT created FROM api_runs WHERE owner = ? AND created > ? ORDER BY created",
        (owner, now - 60.0),
    ).fetchall()
    if len(recent) >= limits.runs_per_minute:
        wait = max(1, int(60.0 - (now - float(recent[0][0]))) + 1)
        raise RateLimitError(
            f"more than {limits.runs_per_minute} runs in a minute",
            retry_after_s=wait,
            hint=f"retry in {wait} s, or raise server.runs_per_minute",
        )


def _thread(row: tuple[Any, ...]) -> ThreadRow:
    return ThreadRow(
        id=row[0],
        owner=row[1],
        created=row[2],
        updated=row[3],
        metadata=json.loads(row[4]),
        status=row[5],
    )


def _run(row: tuple[Any, ...]) -> ApiRun:
    return ApiRun(
        id=row[0],
        thread_id=row[1],
        owner=row[2],
        status=row[3],
        created=row[4],
        updated=row[5],
        payload=json.loads(row[6]),
        attempt=row[7],
        error=row[8],
        cancel=bool(row[9]),
        pid=row[10],
    )
