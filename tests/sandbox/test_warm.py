"""Sessions opened one ahead (:mod:`codeproof.sandbox.warm`): each call gets a fresh,
started session; spares and used sessions are removed; a failed start is not hidden."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Self

import pytest

from codeproof.core.errors import SandboxError, SandboxUnavailableError
from codeproof.sandbox.base import Limits, RunResult
from codeproof.sandbox.warm import WarmSessions


class Session:
    """A session double that records whether it was used and closed."""

    backend = "double"

    def __init__(self, number: int, language: str) -> None:
        self.number, self.language = number, language
        self.uses = 0
        self.closed = False

    def put_files(self, files: Mapping[str, str | bytes]) -> None:
        self.uses += 1

    def run(
        self, command: Sequence[str], *, timeout_s: float | None = None, stdin: str | None = None
    ) -> RunResult:
        return RunResult(exit_code=0, stdout="", stderr="", duration_s=0.0)

    def read_file(self, path: str, max_bytes: int | None = None) -> bytes | None:
        return None

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class Starter:
    """Starts sessions; the first ``failing_spares`` started in the background raise."""

    def __init__(self, failing_spares: int = 0) -> None:
        self.started: list[Session] = []
        self.failing_spares = failing_spares
        self.lock = threading.Lock()

    def __call__(self, language: str, limits: Limits) -> Session:
        with self.lock:
            spare = threading.current_thread().name.startswith("warm-session")
            if spare and self.failing_spares:
                self.failing_spares -= 1
                raise SandboxUnavailableError("no daemon", backend="double", hint="start it")
            session = Session(len(self.started), language)
            self.started.append(session)
            return session


def test_every_call_gets_a_fresh_session_and_every_session_is_closed() -> None:
    starter = Starter()
    used = []
    with WarmSessions(starter) as warm:
        for _ in range(3):
            with warm("python", Limits()) as session:
                session.put_files({"a.py": ""})
                used.append(session)
        with warm("node", Limits(timeout_s=5)) as session:
            used.append(session)
    assert len({id(s) for s in used}) == 4 and all(s.uses <= 1 for s in used)  # type: ignore[attr-defined]
    assert [s.language for s in used] == ["python"] * 3 + ["node"]  # type: ignore[attr-defined]
    # one spare per language and limits was started ahead, and removed at the end
    assert len(starter.started) == 6 and all(s.closed for s in starter.started)


def test_a_spare_that_failed_to_start_is_replaced_by_a_start_in_the_call() -> None:
    starter = Starter(failing_spares=1)  # the daemon went away and came back
    with WarmSessions(starter) as warm:
        with warm("python", Limits()):
            pass
        with warm("python", Limits()) as second:
            assert isinstance(second, Session) and not second.closed
    assert all(s.closed for s in starter.started)


def test_a_backend_that_cannot_start_raises_in_the_call() -> None:
    def start(language: str, limits: Limits) -> Session:
        raise SandboxUnavailableError("no daemon answers", backend="docker", hint="start it")

    warm = WarmSessions(start)
    with warm, pytest.raises(SandboxError, match="no daemon"), warm("python", Limits()):
        pass


def test_concurrent_calls_get_distinct_sessions() -> None:
    starter = Starter()
    got: list[object] = []
    gate = threading.Barrier(3)

    def call(warm: WarmSessions) -> None:
        with warm("python", Limits()) as session:
            gate.wait(timeout=10)  # all three hold their session at once
            got.append(session)

    with WarmSessions(starter) as warm:
        threads = [threading.Thread(target=call, args=(warm,)) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=20)
    assert len({id(s) for s in got}) == 3
    assert all(s.closed for s in starter.started)


def test_a_session_used_after_close_is_closed_in_the_call() -> None:
    starter = Starter()
    warm = WarmSessions(starter)
    with warm("python", Limits()) as session:
        warm.close()
    assert session.closed  # type: ignore[attr-defined]
    assert all(s.closed for s in starter.started)
