"""The Sandbox seam: run untrusted code with limits, on any backend.

Usage::

    with open_session(settings, image, limits) as session:   # see registry
        session.put_files({"main.py": "print(1)"})
        result = session.run(["python3", "main.py"])
        report = session.read_file("report.xml")

Closing a session always removes every trace of it (container, temp dirs),
also when the body raised.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Protocol, Self, runtime_checkable

from pydantic import BaseModel


class Limits(BaseModel):
    """Resource limits of one session; ``timeout_s`` applies to each run."""

    timeout_s: float = 60.0
    memory_bytes: int = 512 * 1024 * 1024
    cpus: float = 1.0
    pids: int = 256
    output_bytes: int = 1_000_000
    disk_bytes: int = 256 * 1024 * 1024


class RunResult(BaseModel):
    """What one command did inside the sandbox."""

    exit_code: int
    stdout: str
    stderr: str
    duration_s: float
    timed_out: bool = False
    oom_killed: bool = False
    truncated: bool = False
    backend: str = ""
    unsafe: bool = False
    """True when the command ran without isolation (``unsafe-local`` backend)."""


@runtime_checkable
class SandboxSession(Protocol):
    """An open, isolated workspace for one language image."""

    backend: str

    def put_files(self, files: Mapping[str, str | bytes]) -> None:
        """Write files (paths relative to the workspace; no ``..`` or absolute paths)."""
        ...

    def run(
        self,
        command: Sequence[str],
        *,
        timeout_s: float | None = None,
        stdin: str | None = None,
    ) -> RunResult:
        """Run a command in the workspace; never raises for the command's own failure."""
        ...

    def read_file(self, path: str, max_bytes: int | None = None) -> bytes | None:
        """Read a workspace file back; ``None`` when it does not exist."""
        ...

    def close(self) -> None:
        """Remove everything; idempotent."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


@runtime_checkable
class Sandbox(Protocol):
    """A backend that opens sessions."""

    name: str

    def available(self) -> bool:
        """Whether this backend can run here (daemon answers, binary present...)."""
        ...

    def open(self, language: str, limits: Limits | None = None) -> SandboxSession:
        """Start a session (container or namespace); the caller must close it."""
        ...
