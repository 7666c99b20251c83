"""Sessions opened one ahead: every call still gets a fresh session, without waiting
for it.

A toolchain server opens a new session for every tool call (an empty workspace, and
nothing a call started survives into the next). With Docker that is a container start
and a removal per call, about half a second each on a 2-core machine, and a mutation
analysis makes dozens of calls. :class:`WarmSessions` starts the next session in the
background while the current one is in use and removes used ones in the background, so
a call only waits for a start when calls come faster than sessions start. A session is
never used twice.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor

from codeproof.core.errors import CodeproofError
from codeproof.sandbox.base import Limits, SandboxSession

logger = logging.getLogger(__name__)

StartSession = Callable[[str, Limits], SandboxSession]
"""``(sandbox language, limits) -> a started session`` (the caller closes it)."""


class WarmSessions:
    """A session opener (``(language, limits) -> context manager``) that keeps one
    started spare per language and limits.

    The first call for a language starts its session in the caller's thread (so a
    backend that cannot start raises there, with its own message and fix); every call
    then starts the next spare in the background. A spare that failed to start is
    dropped and the call starts its session itself. :meth:`close` removes the spares
    and waits for the removals under way.
    """

    def __init__(self, start: StartSession) -> None:
        self._start = start
        self._lock = threading.Lock()
        self._spares: dict[str, Future[SandboxSession]] = {}
        self._pool: ThreadPoolExecutor | None = None
        self._closed = False

    @contextlib.contextmanager
    def __call__(self, language: str, limits: Limits) -> Iterator[SandboxSession]:
        session = self._take(language, limits)
        try:
            yield session
        finally:
            self._retire(session)

    def close(self) -> None:
        """Remove the spares; wait for every start and removal under way."""
        with self._lock:
            self._closed = True
            spares, self._spares = list(self._spares.values()), {}
            pool, self._pool = self._pool, None
        for spare in spares:
            spare.add_done_callback(_close_started)
        if pool is not None:
            pool.shutdown(wait=True)

    def __enter__(self) -> WarmSessions:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _take(self, language: str, limits: Limits) -> SandboxSession:
        key = f"{language}\0{limits.model_dump_json()}"
        with self._lock:
            spare = self._spares.pop(key, None)
            if not self._closed:
                self._spares[key] = self._executor().submit(self._start, language, limits)
        if spare is not None:
            try:
                return spare.result()
            except CodeproofError as exc:
                logger.info(
                    "a spare %s session did not start (%s); starting one now", language, exc
                )
        return self._start(language, limits)

    def _retire(self, session: SandboxSession) -> None:
        with self._lock:
            pool = None if self._closed else self._executor()
        if pool is None:
            session.close()
        else:
            pool.submit(_close, session)

    def _executor(self) -> ThreadPoolExecutor:
        """The background workers (called with the lock held)."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="warm-session")
        return self._pool


def _close(session: SandboxSession) -> None:
    try:
        session.close()
    except CodeproofError as exc:
        logger.warning("could not close a sandbox session: %s", exc)


def _close_started(spare: Future[SandboxSession]) -> None:
    if spare.exception() is None:
        _close(spare.result())
