"""Where runs execute: a small queue interface and the in-process worker pool.

HTTP handlers only :meth:`RunQueue.submit` the id of an API run (already stored as
``pending``); a worker executes it. Everything a worker needs is in the databases, so
a later queue (Celery + Redis, a Postgres checkpointer) can run the same ids on other
hosts behind the same interface. After a restart the server submits the runs still
``pending`` or ``running`` again.
"""

from __future__ import annotations

import logging
import queue as stdlib_queue
import threading
import time
from collections.abc import Callable
from typing import Protocol

logger = logging.getLogger(__name__)

Execute = Callable[[str], None]
"""Executes one API run by id (never raises for the run's own failures)."""


class RunQueue(Protocol):
    """Runs API runs somewhere, at most ``workers`` at once."""

    @property
    def workers(self) -> int: ...

    @property
    def stopping(self) -> bool:
        """Set once :meth:`stop` was called: running runs should pause at their next step."""
        ...

    def start(self) -> None: ...

    def submit(self, run_id: str) -> None: ...

    def stop(self, timeout_s: float = 30.0) -> bool:
        """Take no more runs; wait up to ``timeout_s`` for the running ones to pause;
        whether all did (a model call in progress may outlast the wait)."""
        ...


class InProcessQueue:
    """A pool of worker threads in the server process (one per model slot by default).

    A run id submitted twice while queued or running executes once.
    """

    def __init__(self, execute: Execute, workers: int) -> None:
        self._execute = execute
        self._workers = max(1, workers)
        self._jobs: stdlib_queue.Queue[str | None] = stdlib_queue.Queue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._known: set[str] = set()
        self._stop = threading.Event()

    @property
    def workers(self) -> int:
        return self._workers

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def start(self) -> None:
        with self._lock:
            if self._threads:
                return
            for n in range(self._workers):
                thread = threading.Thread(
                    target=self._work, name=f"codeproof-worker-{n}", daemon=True
                )
                thread.start()
                self._threads.append(thread)

    def submit(self, run_id: str) -> None:
        with self._lock:
            if self._stop.is_set() or run_id in self._known:
                return
            self._known.add(run_id)
        self._jobs.put(run_id)

    def stop(self, timeout_s: float = 30.0) -> bool:
        self._stop.set()
        for _ in self._threads:
            self._jobs.put(None)
        deadline = time.monotonic() + timeout_s
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in self._threads)

    def _work(self) -> None:
        while True:
            run_id = self._jobs.get()
            if run_id is None or self._stop.is_set():
                return
            try:
                self._execute(run_id)
            except Exception:  # the executor records run failures; this is a bug
                logger.exception("worker failed on run %s", run_id)
            finally:
                with self._lock:
                    self._known.discard(run_id)


class InlineQueue:
    """The in-memory double: executes each run in the submitting thread, at once."""

    def __init__(self, execute: Execute) -> None:
        self._execute = execute
        self._stop = threading.Event()

    @property
    def workers(self) -> int:
        return 1

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def start(self) -> None:
        self._stop.clear()

    def submit(self, run_id: str) -> None:
        if not self._stop.is_set():
            self._execute(run_id)

    def stop(self, timeout_s: float = 30.0) -> bool:
        self._stop.set()
        return True
