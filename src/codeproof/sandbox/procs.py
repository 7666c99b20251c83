"""Host process and cgroup helpers: owner tags, OOM counters, per-session cgroups, and
the run plumbing every session backend shares (:class:`SessionBase`)."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Self

from codeproof.core.errors import SandboxError
from codeproof.core.lifecycle import Lifecycle
from codeproof.sandbox._common import files_to_tar, make_result, workspace_path
from codeproof.sandbox._process import ProcessOutcome
from codeproof.sandbox.base import Limits, RunResult
from codeproof.sandbox.images import SANDBOX_UID, WORKSPACE

logger = logging.getLogger(__name__)

CGROUP_ROOT = Path("/sys/fs/cgroup")
_PARENT = "codeproof"


def _start_time(pid: int) -> str | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def owner_tag(pid: int | None = None) -> str:
    """``pid:starttime`` of a process (default: this one); survives pid reuse checks."""
    pid = os.getpid() if pid is None else pid
    return f"{pid}:{_start_time(pid)}"


def owner_alive(tag: str) -> bool:
    """Whether the process named by an :func:`owner_tag` still runs."""
    pid_text, _, start = tag.partition(":")
    if not pid_text.isdigit():
        return False
    return _start_time(int(pid_text)) == start


def _read_counter(path: Path, key: str) -> int | None:
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        name, _, value = line.partition(" ")
        if name == key and value.strip().isdigit():
            return int(value)
    return None


def oom_counter_file(pid: int) -> Path | None:
    """The file counting OOM kills in the memory cgroup of ``pid`` (v1 or v2)."""
    try:
        lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
    except OSError:
        return None
    unified = None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(","):
            return CGROUP_ROOT / "memory" / path.lstrip("/") / "memory.oom_control"
        if controllers == "":
            unified = CGROUP_ROOT / path.lstrip("/") / "memory.events"
    return unified


def _cgroup_dir(pid: int, controller: str) -> Path | None:
    try:
        lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            return CGROUP_ROOT / controller / path.lstrip("/")
        if controllers == "" and (CGROUP_ROOT / "cgroup.controllers").exists():
            return CGROUP_ROOT / path.lstrip("/")
    return None


def _real_uid(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Uid:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def kill_uid_in_cgroup_of(pid: int | None, uid: int) -> bool:
    """SIGKILL every process of ``uid`` in the pids cgroup of ``pid`` (host side).

    Returns:
        False when the cgroup cannot be read or signalled from here (not root,
        remote daemon), True otherwise.
    """
    if pid is None or os.geteuid() != 0:
        return False
    directory = _cgroup_dir(pid, "pids")
    if directory is None or not (directory / "cgroup.procs").is_file():
        return False
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # repeat: a fork bomb refills freed pids
        try:
            members = (directory / "cgroup.procs").read_text().split()
        except OSError:
            return True  # the container is gone
        victims = [m for m in map(int, members) if _real_uid(m) == uid]
        if not victims:
            break
        for victim in victims:
            with contextlib.suppress(ProcessLookupError):
                os.kill(victim, signal.SIGKILL)
        time.sleep(0.01)
    return True


def oom_kills_of_pid(pid: int | None) -> int | None:
    """OOM kills so far in the memory cgroup of ``pid``; ``None`` when unknown."""
    if pid is None:
        return None
    path = oom_counter_file(pid)
    return None if path is None else _read_counter(path, "oom_kill")


class CgroupV1:
    """A per-session cgroup (v1 memory, pids and cpu controllers) when writable.

    Created by :meth:`create`; processes join via :meth:`join` (from a pre-exec hook);
    :meth:`kill_all` and :meth:`remove` clean up.
    """

    CONTROLLERS = ("memory", "pids", "cpu")

    def __init__(self) -> None:
        owner = owner_tag().replace(":", "-")
        self.name = f"{_PARENT}/{owner}-{uuid.uuid4().hex[:12]}"
        self.dirs: list[Path] = []

    @classmethod
    def reap_leftovers(cls) -> int:
        """Remove session cgroups whose owning process is gone; returns how many."""
        removed = 0
        for controller in cls.CONTROLLERS:
            parent = CGROUP_ROOT / controller / _PARENT
            for path in parent.glob("*-*-*") if parent.is_dir() else []:
                pid, start, _ = path.name.split("-", 2)
                if owner_alive(f"{pid}:{start}"):
                    continue
                leftover = cls()
                leftover.name = f"{_PARENT}/{path.name}"
                leftover.dirs = [path]
                leftover.remove()
                removed += 1
        return removed

    @staticmethod
    def supported() -> bool:
        """Whether v1 memory and pids hierarchies exist and are writable."""
        return all(
            os.access(CGROUP_ROOT / c, os.W_OK) and (CGROUP_ROOT / c / "tasks").exists()
            for c in ("memory", "pids")
        )

    def create(self, memory_bytes: int, pids: int, cpus: float) -> None:
        """Make the cgroup directories and write the limits."""
        for controller in self.CONTROLLERS:
            path = CGROUP_ROOT / controller / self.name
            if not (CGROUP_ROOT / controller).is_dir():
                continue
            path.mkdir(parents=True, exist_ok=True)
            self.dirs.append(path)
        self._write("memory", "memory.limit_in_bytes", memory_bytes)
        self._write("memory", "memory.memsw.limit_in_bytes", memory_bytes, optional=True)
        self._write("memory", "memory.swappiness", 0, optional=True)
        self._write("pids", "pids.max", pids)
        self._write("cpu", "cpu.cfs_period_us", 100_000, optional=True)
        self._write("cpu", "cpu.cfs_quota_us", int(cpus * 100_000), optional=True)

    def _write(self, controller: str, name: str, value: int, optional: bool = False) -> None:
        path = CGROUP_ROOT / controller / self.name / name
        try:
            path.write_text(str(value))
        except OSError:
            if not optional:
                raise

    def join(self) -> None:
        """Move the calling process into every controller of this cgroup."""
        for path in self.dirs:
            (path / "cgroup.procs").write_text(str(os.getpid()))

    def oom_kills(self) -> int | None:
        """OOM kills so far in this cgroup."""
        return _read_counter(CGROUP_ROOT / "memory" / self.name / "memory.oom_control", "oom_kill")

    def pids(self) -> list[int]:
        """Processes currently in the cgroup."""
        try:
            text = (CGROUP_ROOT / "pids" / self.name / "cgroup.procs").read_text()
        except OSError:
            return []
        return [int(p) for p in text.split()]

    def kill_all(self) -> None:
        """SIGKILL every process in the cgroup until it is empty (bounded)."""
        deadline = time.monotonic() + 5
        while (pids := self.pids()) and time.monotonic() < deadline:
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)

    def remove(self) -> None:
        """Kill what is left and remove the directories."""
        for path in self.dirs:
            with contextlib.suppress(OSError):
                for pid in (path / "cgroup.procs").read_text().split():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(int(pid), signal.SIGKILL)
        self.kill_all()
        for path in self.dirs:
            for _ in range(50):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)
            else:
                logger.warning("could not remove cgroup %s", path)
        self.dirs = []


_MISSING = 44
_READ = '[ -f "$1" ] || exit 44; exec head -c "$2" -- "$1"'
DEFAULT_READ_BYTES = 64 * 1024 * 1024


class SessionBase(Lifecycle, ABC):
    """What every session backend shares: the context manager and :meth:`run`.

    :meth:`run` checks the command, applies the default timeout, times the run and
    assembles the :class:`RunResult`; a backend supplies :meth:`_execute`.
    """

    backend: str
    limits: Limits

    @abstractmethod
    def start(self) -> None:
        """Create what the session needs (workspace, container...)."""

    @abstractmethod
    def close(self) -> None:
        """Remove everything; idempotent."""

    @abstractmethod
    def _startable(self) -> bool:
        """Whether entering the session must start it (not started, not closed)."""

    @abstractmethod
    def _execute(
        self, command: Sequence[str], *, stdin: bytes | None, timeout_s: float
    ) -> tuple[ProcessOutcome, bool]:
        """Run a non-empty command; what it did and whether the OOM killer struck."""

    def __enter__(self) -> Self:
        if self._startable():
            self.start()
        return self

    def _not_running(self) -> SandboxError:
        return SandboxError("the session is not running", backend=self.backend)

    def run(
        self,
        command: Sequence[str],
        *,
        timeout_s: float | None = None,
        stdin: str | None = None,
    ) -> RunResult:
        """Run ``command`` in the workspace; never raises for the command's own failure.

        Raises:
            SandboxError: The command is empty, or the backend failed.
        """
        if not command:
            raise SandboxError("empty command", backend=self.backend)
        started = time.monotonic()
        outcome, oom = self._execute(
            command,
            stdin=None if stdin is None else stdin.encode(),
            timeout_s=timeout_s if timeout_s is not None else self.limits.timeout_s,
        )
        return make_result(
            exit_code=outcome.exit_code,
            stdout=outcome.stdout,
            stderr=outcome.stderr,
            started=started,
            backend=self.backend,
            timed_out=outcome.timed_out,
            oom_killed=oom and not outcome.timed_out,
        )


class IsolatedSession(SessionBase):
    """A session whose files travel through ``tar`` and ``head`` run inside the sandbox
    as the sandbox user, never through host paths; a backend supplies :meth:`_exec`."""

    @abstractmethod
    def _exec(
        self, command: Sequence[str], *, stdin: bytes | None, timeout_s: float, limit: int
    ) -> ProcessOutcome:
        """Run ``command`` inside the sandbox, keeping ``limit`` bytes of each stream."""

    def put_files(self, files: Mapping[str, str | bytes]) -> None:
        """Unpack files into the workspace with ``tar`` run as the sandbox user."""
        archive = files_to_tar(files, uid=SANDBOX_UID)
        command = ["tar", "-x", "-m", "-f", "-", "-C", WORKSPACE]
        outcome = self._exec(command, stdin=archive, timeout_s=60, limit=65536)
        if outcome.exit_code != 0:
            raise SandboxError(
                f"copying files into the workspace failed: {outcome.stderr.text().strip()}",
                backend=self.backend,
                hint="check the workspace size limit (sandbox.disk)",
            )

    def read_file(self, path: str, max_bytes: int | None = None) -> bytes | None:
        """Read a workspace file from inside the sandbox (at most ``max_bytes``, default
        64 MiB; links resolve inside it)."""
        limit = max_bytes if max_bytes is not None else DEFAULT_READ_BYTES
        rel = str(workspace_path(path))
        command = ["/bin/sh", "-c", _READ, "sh", rel, str(limit)]
        outcome = self._exec(command, stdin=None, timeout_s=60, limit=limit)
        if outcome.exit_code == _MISSING:
            return None
        if outcome.exit_code != 0:
            raise SandboxError(
                f"reading {rel} failed: {outcome.stderr.text().strip()}", backend=self.backend
            )
        return outcome.stdout.data()
