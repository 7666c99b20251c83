"""bubblewrap backend: each run is a fresh set of namespaces over the language tree.

The language root filesystem (the same tree the Docker image is imported from) is
bound read-only as ``/``, so host files (``/root``, ``~/.ssh``, the Docker socket)
simply do not exist inside. The session's workspace and ``/tmp`` live on a
size-limited tmpfs mounted on the host (when root) and are bound writable. When
started as root, bwrap runs as the unprivileged ``nobody`` uid (mapped to uid 1000
inside) in a per-session cgroup (memory, pids, CPU) when cgroup v1 is writable;
otherwise rlimits are the only bounds (see ``docs/sandbox.md``).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import resource
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from codeproof.core.config import Settings
from codeproof.core.errors import SandboxError, SandboxUnavailableError
from codeproof.sandbox._process import ProcessOutcome, run_process
from codeproof.sandbox.base import Limits
from codeproof.sandbox.images import (
    SANDBOX_PATH,
    SANDBOX_UID,
    WORKSPACE,
    build_rootfs,
    can_build_rootfs,
    recipe_for,
    rootfs_ready,
)
from codeproof.sandbox.procs import CgroupV1, IsolatedSession, owner_alive, owner_tag

logger = logging.getLogger(__name__)

HOST_UID = 65534  # nobody: what sandboxed processes are on the host when we start as root
_PREFIX = "codeproof-bwrap-"
_SHM_BYTES = 64 * 1024 * 1024  # like Docker's default /dev/shm
#: bwrap itself (pid 1 inside) gets only this environment: its /proc/1/environ is visible.
_BWRAP_ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}


def _is_root() -> bool:
    return os.geteuid() == 0


@functools.cache
def bwrap_works() -> bool:
    """Whether bwrap can create the namespaces it needs here (cached)."""
    if shutil.which("bwrap") is None:
        return False
    command = [
        "bwrap", "--unshare-all", "--unshare-user", "--disable-userns",
        "--uid", str(SANDBOX_UID), "--ro-bind", "/", "/", "true",
    ]  # fmt: skip
    try:
        proc = subprocess.run(
            command,
            capture_output=True,
            timeout=30,
            check=False,
            preexec_fn=_drop_privileges if _is_root() else None,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


def _drop_privileges() -> None:
    os.setgroups([])
    os.setgid(HOST_UID)
    os.setuid(HOST_UID)


def reap_leftovers() -> list[str]:
    """Unmount and remove workspaces whose owning process is gone."""
    removed = []
    for path in Path(tempfile.gettempdir()).glob(f"{_PREFIX}*"):
        tag = path.name.removeprefix(_PREFIX).rsplit("-", 1)[0].replace("-", ":", 1)
        if owner_alive(tag):
            continue
        _unmount(path)
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path.name)
    if removed:
        logger.warning("removed %d leftover bubblewrap workspace(s)", len(removed))
    return removed


def _mount(args: list[str]) -> None:
    proc = subprocess.run(["mount", *args], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise OSError(f"mount {' '.join(args)} failed: {proc.stderr.strip()}")


def _unmount(path: Path) -> None:
    for mountpoint in (path / "root", path):
        if os.path.ismount(mountpoint):
            subprocess.run(["umount", "-l", str(mountpoint)], capture_output=True, check=False)


class BubblewrapSandbox:
    """Backend running each command under ``bwrap`` over the language tree."""

    name = "bubblewrap"
    _reaped = False

    def __init__(self, settings: Settings) -> None:
        self._settings = settings

    def available(self) -> bool:
        """Whether bwrap is installed and can create namespaces."""
        return bwrap_works()

    def can_serve(self, language: str) -> bool:
        """Whether the tree of ``language`` exists or can be built here."""
        return self.available() and (rootfs_ready(self._settings, language) or can_build_rootfs())

    def open(self, language: str, limits: Limits | None = None) -> BubblewrapSession:
        """Prepare a workspace for ``language`` (building its tree first if needed)."""
        recipe_for(language)
        if not self.available():
            raise SandboxUnavailableError(
                "bubblewrap cannot create namespaces here",
                backend=self.name,
                hint="apt-get install bubblewrap, and allow unprivileged user namespaces",
            )
        if not BubblewrapSandbox._reaped:
            BubblewrapSandbox._reaped = True
            reap_leftovers()
            if _is_root() and CgroupV1.supported():
                CgroupV1.reap_leftovers()
        rootfs = build_rootfs(self._settings, language)
        session = BubblewrapSession(rootfs, language, limits or Limits())
        session.start()
        return session


class BubblewrapSession(IsolatedSession):
    """A workspace (and cgroup) reused by every run of the session."""

    backend = "bubblewrap"

    def __init__(self, rootfs: Path, language: str, limits: Limits) -> None:
        self._rootfs = rootfs
        self._language = language
        self.limits = limits
        self._dir: Path | None = None
        self._root = rootfs
        self._cgroup: CgroupV1 | None = None
        self._cgroup_fds: list[int] = []
        self._closed = False

    @property
    def host_dir(self) -> Path | None:
        """Host directory holding the workspace and ``/tmp`` (``None`` when closed)."""
        return self._dir

    def start(self) -> None:
        """Create the workspace, the cgroup and the read-only view of the tree."""
        try:
            self._dir = Path(tempfile.mkdtemp(prefix=f"{_PREFIX}{owner_tag().replace(':', '-')}-"))
            if _is_root():
                self._mount_tmpfs(self._dir)
            for sub, mode in (("workspace", 0o755), ("tmp", 0o1777)):
                (self._dir / sub).mkdir()
                os.chmod(self._dir / sub, mode)
                if _is_root():
                    os.chown(self._dir / sub, HOST_UID, HOST_UID)
            self._root = self._rootfs
            if _is_root():  # the tree's own path may not be traversable by HOST_UID
                self._root = self._dir / "root"
                self._root.mkdir()
                _mount(["--bind", "-o", "ro", str(self._rootfs), str(self._root)])
                _mount(["-o", "remount,bind,ro,nosuid,nodev", str(self._root)])
            if _is_root() and CgroupV1.supported():
                self._cgroup = CgroupV1()
                self._cgroup.create(self.limits.memory_bytes, self.limits.pids, self.limits.cpus)
                self._cgroup_fds = [
                    os.open(path / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)
                    for path in self._cgroup.dirs
                ]
        except OSError as exc:
            self.close()
            raise SandboxError(
                f"cannot prepare the workspace: {exc}", backend=self.backend
            ) from exc

    def _mount_tmpfs(self, path: Path) -> None:
        options = f"size={2 * self.limits.disk_bytes},mode=0711,nosuid,nodev"
        _mount(["-t", "tmpfs", "-o", options, "codeproof-sandbox", str(path)])

    def _startable(self) -> bool:
        return self._dir is None and not self._closed

    def _argv(self, command: Sequence[str]) -> list[str]:
        if self._dir is None:
            raise self._not_running()
        env = {"PATH": SANDBOX_PATH, "HOME": WORKSPACE, "LANG": "C.UTF-8", "TMPDIR": "/tmp"}
        setenv = [arg for key, value in env.items() for arg in ("--setenv", key, value)]
        return [
            "bwrap",
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--die-with-parent",
            "--new-session",
            "--clearenv",
            *setenv,
            "--uid", str(SANDBOX_UID),
            "--gid", str(SANDBOX_UID),
            "--hostname", "sandbox",
            "--ro-bind", str(self._root), "/",
            "--bind", str(self._dir / "workspace"), WORKSPACE,
            "--bind", str(self._dir / "tmp"), "/tmp",
            "--proc", "/proc",
            "--dev", "/dev",
            "--size", str(_SHM_BYTES), "--tmpfs", "/dev/shm",
            "--remount-ro", "/dev",
            "--chdir", WORKSPACE,
            "--",
            *command,
        ]  # fmt: skip

    def _preexec(self) -> Callable[[], None]:
        lim = self.limits
        cgroup_fds = list(self._cgroup_fds)
        rlimits = [
            (resource.RLIMIT_FSIZE, lim.disk_bytes),
            (resource.RLIMIT_NOFILE, 1024),
            (resource.RLIMIT_CORE, 0),
        ]
        if self._cgroup is None:
            # Without a memory cgroup, RLIMIT_AS is the bound; a JIT (JVM, V8) reserves far
            # more virtual memory than it uses: its recipe grants that much extra.
            headroom = recipe_for(self._language).virtual_headroom
            rlimits.append((resource.RLIMIT_AS, lim.memory_bytes + headroom))
            rlimits.append((resource.RLIMIT_NPROC, lim.pids))
        drop = _is_root()

        def preexec() -> None:
            for fd in cgroup_fds:
                os.write(fd, b"0")
            for which, value in rlimits:
                resource.setrlimit(which, (value, value))
            if drop:
                _drop_privileges()

        return preexec

    def _exec(
        self, command: Sequence[str], *, stdin: bytes | None, timeout_s: float, limit: int
    ) -> ProcessOutcome:
        return run_process(
            self._argv(command),
            timeout_s=timeout_s,
            limit=limit,
            stdin=stdin,
            preexec=self._preexec(),
            env=dict(_BWRAP_ENV),
            on_timeout=self._cgroup.kill_all if self._cgroup else None,
        )

    def _execute(
        self, command: Sequence[str], *, stdin: bytes | None, timeout_s: float
    ) -> tuple[ProcessOutcome, bool]:
        """A run in fresh namespaces; everything it started dies with it."""
        before = self._cgroup.oom_kills() if self._cgroup else None
        outcome = self._exec(
            ["/bin/sh", "-c", '"$@"', "sh", *command],
            stdin=stdin,
            timeout_s=timeout_s,
            limit=self.limits.output_bytes,
        )
        oom = False
        if self._cgroup is not None:
            self._cgroup.kill_all()
            after = self._cgroup.oom_kills()
            oom = before is not None and after is not None and after > before
        return outcome, oom

    def close(self) -> None:
        """Kill leftovers, remove the cgroup, unmount and delete the workspace."""
        self._closed = True
        for fd in self._cgroup_fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._cgroup_fds = []
        if self._cgroup is not None:
            self._cgroup.remove()
            self._cgroup = None
        if self._dir is not None:
            _unmount(self._dir)
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None
