"""The application layer shared by the HTTP API, the web page and the MCP tools:
ownership, validation and limits first, then a stored ``pending`` run and a submit.

Nothing is written before every check passed, so a refused request leaves nothing.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pydantic import ValidationError

from codeproof.core.errors import ConflictError, InputError, NotFoundError, PayloadTooLargeError
from codeproof.server.engine import Engine
from codeproof.server.events import EventLog
from codeproof.server.protocol import (
    UNSUPPORTED_RUN_FIELDS,
    CommandIn,
    RunCreate,
    RunInput,
    is_assistant,
)
from codeproof.server.queue import RunQueue
from codeproof.server.threads import ApiRun, Limits, ThreadRow, ThreadStore
from codeproof.server.worker import run_exists
from codeproof.workflow.deps import RunOptions
from codeproof.workflow.humans import Pending, check_answer
from codeproof.workflow.inputs import validate_language, validate_request
from codeproof.workflow.runner import Runner
from codeproof.workflow.store import RunInfo, RunStore


def first_error(exc: ValidationError, where: str) -> InputError:
    """A pydantic error as one line that says what to fix."""
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    at = f"{where}.{loc}" if loc else where
    return InputError(f"{at}: {err['msg']}", hint="see /docs for the expected shape")


class Service:
    """Threads and runs of authenticated users."""

    def __init__(
        self, engine: Engine, threads: ThreadStore, events: EventLog, queue: RunQueue
    ) -> None:
        self.engine = engine
        self.threads = threads
        self.events = events
        self.queue = queue
        self._store = RunStore(engine.settings.runs_dir)
        self._reader = engine.runner(self._store)
        self._read_lock = threading.RLock()
        server = engine.settings.server
        self.limits = Limits(
            runs_per_minute=server.runs_per_minute, max_active_runs=server.max_active_runs
        )

    def open(self) -> None:
        self._store.open()

    def close(self) -> None:
        self._store.close()

    @contextmanager
    def runner(self) -> Iterator[Runner]:
        """The shared runner for reads and checks (one at a time: its store's checkpoint
        connection is shared; its read graph is compiled once)."""
        with self._read_lock:
            yield self._reader

    # -- runs ----------------------------------------------------------------------------

    def create_run(self, user: str, thread_id: str | None, body: RunCreate) -> ApiRun:
        """Check a run request, store it as ``pending`` and submit it.

        Raises:
            InputError: Bad input, answer or option (422; 413 when too large).
            NotFoundError: No such thread or assistant.
            ConflictError: The thread is busy, done, or not waiting for an answer.
            RateLimitError: Over the user's limits.
        """
        _refuse_unsupported(body)
        if not is_assistant(body.assistant_id):
            raise NotFoundError(
                f"no assistant {body.assistant_id!r}", hint="use assistant_id 'codeproof'"
            )
        thread = self._thread_for(user, thread_id, body)
        payload = self._payload(thread, body)
        payload["stream_mode"] = body.modes()
        payload["metadata"] = body.metadata or {}
        payload["assistant_id"] = body.assistant_id
        run = self.threads.add_run(user, thread.id, payload, self.limits)
        self.queue.submit(run.id)
        return run

    def _thread_for(self, user: str, thread_id: str | None, body: RunCreate) -> ThreadRow:
        if thread_id is None:
            return self.threads.create_thread(user)
        try:
            return self.threads.get_thread(user, thread_id)
        except NotFoundError:
            if body.if_not_exists != "create":
                raise
            return self.threads.create_thread(user, thread_id)

    def _payload(self, thread: ThreadRow, body: RunCreate) -> dict[str, Any]:
        command = body.command or CommandIn()
        if command.resume is not None and body.input is not None:
            raise InputError("give either input or command.resume", hint="not both")
        info = self.run_info(thread.id)
        started = info is not None
        if command.resume is not None:
            pending = self._pending_or_conflict(thread.id)
            answer = check_answer(pending, command.resume)
            return {"kind": "answer", "answer": answer, "interrupt_id": pending.interrupt_id}
        if body.input is not None:
            if started:
                raise ConflictError(
                    f"thread {thread.id} already has its request",
                    hint="answer its question with command.resume, or start a new thread",
                )
            return self._start_payload(thread.id, body.input)
        if info is None:
            raise InputError(
                "the first run of a thread needs input {request, lang?, options?}",
                hint='e.g. {"request": "a slugify function"}',
            )
        if info.status == "done":
            raise ConflictError(f"thread {thread.id} is done", hint="start a new thread")
        return {"kind": "continue"}

    def _pending_or_conflict(self, thread_id: str) -> Pending:
        pending = self.pending(thread_id)
        if pending is None:
            raise ConflictError(
                f"thread {thread_id} is not waiting for an answer",
                hint="answer only while the thread is interrupted",
            )
        return pending

    def _start_payload(self, thread_id: str, raw: dict[str, Any]) -> dict[str, Any]:
        try:
            data = RunInput.model_validate(raw)
        except ValidationError as exc:
            raise first_error(exc, "input") from exc
        limit = self.engine.settings.server.max_request_chars
        if len(data.request) > limit:
            raise PayloadTooLargeError(
                f"the request has {len(data.request)} characters; the limit is {limit}",
                hint="shorten it, or raise server.max_request_chars",
            )
        request = validate_request(data.request)
        language = validate_language(data.lang, list(self.engine.languages))
        settings = self.engine.settings
        if data.options.max_attempts or data.options.candidates:
            workflow = settings.workflow.model_copy(
                update={
                    k: v
                    for k, v in (
                        ("max_attempts", data.options.max_attempts),
                        ("candidates", data.options.candidates),
                    )
                    if v
                }
            )
            settings = settings.model_copy(update={"workflow": workflow})
        options = RunOptions.from_settings(
            settings,
            out_dir=str(settings.projects_dir / thread_id),
            language=language,
            auto=data.options.yes,
            preselect=data.options.modules,
            on_failure=data.options.on_failure,
        )
        return {"kind": "start", "request": request, "options": options.model_dump(mode="json")}

    def cancel_run(self, user: str, thread_id: str, run_id: str) -> ApiRun:
        """Cancel a pending run at once, or a running one at its next step.

        Raises:
            NotFoundError: No such run for this user.
        """
        run = self.threads.get_run(user, thread_id, run_id)
        if run.status == "pending":
            self.threads.finish_run(run, "interrupted", "idle")
            self.events.append(run.id, "end", {"run_id": run.id, "status": "interrupted"})
        elif run.status == "running":
            self.threads.request_cancel(run)
        return self.threads.run(run.id)

    def recover(self) -> list[str]:
        """Submit the runs a previous server process left pending or running."""
        ids = [run.id for run in self.threads.unfinished()]
        for run_id in ids:
            self.queue.submit(run_id)
        return ids

    # -- threads -------------------------------------------------------------------------

    def pending(self, thread_id: str) -> Pending | None:
        """The thread's pending question (``None`` also before its first run)."""
        with self.runner() as runner:
            if not run_exists(runner.store, thread_id):
                return None
            return runner.pending(thread_id)

    def run_info(self, thread_id: str) -> RunInfo | None:
        """The thread's codeproof run (status, request, output directory), if started."""
        with self.runner() as runner:
            if not run_exists(runner.store, thread_id):
                return None
            return runner.store.get_run(thread_id)

    def delete_thread(self, user: str, thread_id: str) -> None:
        """Delete the thread, its runs, streams, its codeproof run and its project."""
        run_ids = self.threads.delete_thread(user, thread_id)
        self.events.delete(run_ids)
        with self.runner() as runner:
            if run_exists(runner.store, thread_id):
                runner.store.delete_run(thread_id)
        project = self.engine.settings.projects_dir / thread_id
        if project.is_dir():
            shutil.rmtree(project)


def _refuse_unsupported(body: RunCreate) -> None:
    for name in UNSUPPORTED_RUN_FIELDS:
        if getattr(body, name) not in (None, [], {}):
            raise InputError(
                f"{name} is not supported by codeproof", hint=f"leave {name} out of the request"
            )
