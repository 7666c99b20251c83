"""Executes one API run: the same :class:`~codeproof.workflow.runner.Runner`, run store
and checkpointer as ``codeproof new``, from the last checkpoint to the next question or
the end, with every chunk stored in the stream event log before anyone reads it.

Idempotent: a run executed again after a crash or ``kill -9`` continues from the
checkpoint, its completed model calls replayed from the run store's memo, and an
answer already taken by the graph is not given twice.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any

from codeproof.core.errors import CodeproofError, InputError
from codeproof.server.engine import Engine
from codeproof.server.events import EventLog
from codeproof.server.progress import jsonable, progress
from codeproof.server.threads import ApiRun, ThreadStore
from codeproof.workflow.deps import RunOptions
from codeproof.workflow.humans import Pending
from codeproof.workflow.runner import Runner, RunResult
from codeproof.workflow.store import Event, RunStore

logger = logging.getLogger(__name__)

GRAPH_MODES = ("values", "updates")


def run_exists(store: RunStore, run_id: str) -> bool:
    """Whether the run store holds a run of exactly this id."""
    try:
        return store.get_run(run_id).id == run_id
    except InputError:
        return False


class Executor:
    """Callable executing API runs by id (what a queue's workers call).

    Args:
        engine: Model, toolchains, settings.
        threads: Threads and API runs.
        events: The stream event log.
        stopping: True once the server shuts down: a run then pauses at its next step
            and stays ``pending``, to run again at the next start.
    """

    def __init__(
        self,
        engine: Engine,
        threads: ThreadStore,
        events: EventLog,
        stopping: Callable[[], bool] = lambda: False,
    ) -> None:
        self.engine = engine
        self.threads = threads
        self.events = events
        self.stopping = stopping

    def __call__(self, run_id: str) -> None:
        run = self.threads.begin_attempt(run_id)
        if run is None:
            return  # cancelled while queued, done, or another server process has it
        self.events.append(run.id, "metadata", {"run_id": run.id, "attempt": run.attempt})
        with RunStore(self.engine.settings.runs_dir) as store:
            listener = self._listener(run)
            store.subscribe(listener)
            try:
                outcome = self._advance(self.engine.runner(store), store, run)
            except KeyboardInterrupt:  # the server stopped the model: the run stays
                logger.info("run %s paused by the shutdown; it continues at the next start", run.id)
            except CodeproofError as exc:
                self._fail(run, type(exc).__name__, exc.message, exc.hint)
            except Exception as exc:
                logger.exception("run %s failed", run.id)
                self._fail(run, type(exc).__name__, str(exc), None)
            else:
                self._end(run, outcome)
            finally:
                store.unsubscribe(listener)

    def _advance(self, runner: Runner, store: RunStore, run: ApiRun) -> RunResult | Pending:
        thread_id, payload = run.thread_id, run.payload
        if not run_exists(store, thread_id):
            if payload.get("kind") != "start":
                raise InputError(f"thread {thread_id} has no request yet")
            options = RunOptions.model_validate(payload["options"])
            runner.create(payload["request"], options, run_id=thread_id)
        info = store.get_run(thread_id)
        if info.status in ("running", "waiting") and not info.orphaned and info.pid != os.getpid():
            raise InputError(
                f"run {thread_id} is being run by process {info.pid}",
                hint="wait for it or stop that process (codeproof resume?)",
            )

        wanted = set(payload.get("stream_mode") or GRAPH_MODES)

        def on_step(mode: str, chunk: Any) -> None:
            if mode in wanted:  # a run streams the modes it was created with
                self.events.append(run.id, mode, jsonable(chunk))

        answering = payload.get("kind") == "answer"
        return runner.advance(
            thread_id,
            payload["answer"] if answering else None,
            answer_to=payload.get("interrupt_id") if answering else None,
            on_step=on_step,
            modes=GRAPH_MODES,
            stop=lambda: self.stopping() or self.threads.cancel_requested(run.id),
        )

    def _listener(self, run: ApiRun) -> Callable[[Event], None]:
        wanted = "custom" in (run.payload.get("stream_mode") or ["custom"])

        def on_event(event: Event) -> None:
            if wanted and event.run_id == run.thread_id:
                self.events.append(run.id, "custom", progress(event))

        return on_event

    def _end(self, run: ApiRun, outcome: RunResult | Pending) -> None:
        if isinstance(outcome, Pending):
            self.threads.finish_run(run, "success", "interrupted")
            status = "success"
        elif outcome.status == "paused":  # stopped at a step: a cancel or a shutdown
            if self.stopping() and not self.threads.cancel_requested(run.id):
                return  # stays running: the next start executes it again
            self.threads.finish_run(run, "interrupted", "idle")
            status = "interrupted"
        else:
            self.threads.finish_run(run, "success", "idle")
            status = "success"
        self.events.append(run.id, "end", {"run_id": run.id, "status": status})

    def _fail(self, run: ApiRun, error: str, message: str, hint: str | None) -> None:
        self.threads.finish_run(run, "error", "error", f"{error}: {message}")
        data: dict[str, Any] = {"error": error, "message": message}
        if hint:
            data["hint"] = hint
        self.events.append(run.id, "error", data)
