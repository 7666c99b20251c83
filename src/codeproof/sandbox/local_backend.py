"""unsafe-local backend: a plain subprocess in a temporary directory.

No isolation at all: the code sees the host, its files, its network and its
environment minus what is cleared here. Only selected explicitly with
``--sandbox unsafe-local``; every run logs a warning and is marked ``unsafe``.
"""

from __future__ import annotations

import logging
import os
import resource
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from codeproof.core.config import Settings
from codeproof.core.errors import InputError
from codeproof.sandbox._common import BoundedBuffer, workspace_path
from codeproof.sandbox._process import ProcessOutcome, run_process
from codeproof.sandbox.base import Limits
from codeproof.sandbox.images import recipe_for
from codeproof.sandbox.procs import DEFAULT_READ_BYTES, SessionBase

logger = logging.getLogger(__name__)

_HOST_PATH = "/usr/local/bin:/usr/bin:/bin"


class UnsafeLocalSandbox:
    """Runs commands directly on the host (no isolation)."""

    name = "unsafe-local"

    def __init__(self, settings: Settings) -> None:
        self._settings = settings

    def available(self) -> bool:
        """Always: it needs nothing."""
        return True

    def can_serve(self, language: str) -> bool:
        """Always (whether the host has the toolchain is the caller's problem)."""
        return True

    def open(self, language: str, limits: Limits | None = None) -> UnsafeLocalSession:
        """Create a temporary workspace on the host."""
        recipe_for(language)
        session = UnsafeLocalSession(limits or Limits())
        session.start()
        return session


class UnsafeLocalSession(SessionBase):
    """A host temporary directory; commands run as the current user."""

    backend = "unsafe-local"

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._dir: Path | None = None

    def start(self) -> None:
        """Create the workspace."""
        self._dir = Path(tempfile.mkdtemp(prefix="codeproof-local-"))

    def _startable(self) -> bool:
        return self._dir is None

    def _workspace(self) -> Path:
        if self._dir is None:
            raise self._not_running()
        return self._dir

    def _inside(self, path: str) -> Path:
        root = self._workspace().resolve()
        target = (root / workspace_path(path)).resolve()
        if not target.is_relative_to(root):
            raise InputError(f"{path!r} leads outside the workspace", hint="remove the link")
        return target

    def put_files(self, files: Mapping[str, str | bytes]) -> None:
        """Write files into the workspace (links leading outside are refused)."""
        for name, content in files.items():
            target = self._inside(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            data = content.encode() if isinstance(content, str) else content
            flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
            fd = os.open(target, flags, 0o755 if data.startswith(b"#!") else 0o644)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)

    def _preexec(self) -> Callable[[], None]:
        lim = self.limits
        rlimits = [
            (resource.RLIMIT_FSIZE, lim.disk_bytes),
            (resource.RLIMIT_NOFILE, 1024),
            (resource.RLIMIT_CORE, 0),
        ]

        def preexec() -> None:
            for which, value in rlimits:
                resource.setrlimit(which, (value, value))

        return preexec

    def _execute(
        self, command: Sequence[str], *, stdin: bytes | None, timeout_s: float
    ) -> tuple[ProcessOutcome, bool]:
        """A host process in the workspace, with a cleared environment."""
        workspace = self._workspace()
        logger.warning("UNSAFE: running %s on the host without any sandbox", command[0])
        env = {"PATH": _HOST_PATH, "HOME": str(workspace), "LANG": "C.UTF-8"}
        try:
            outcome = run_process(
                command,
                timeout_s=timeout_s,
                limit=self.limits.output_bytes,
                stdin=stdin,
                preexec=self._preexec(),
                cwd=str(workspace),
                env=env,
            )
        except FileNotFoundError:
            not_found = BoundedBuffer(self.limits.output_bytes)
            not_found.feed(f"{command[0]}: not found\n".encode())
            outcome = ProcessOutcome(127, BoundedBuffer(self.limits.output_bytes), not_found, False)
        return outcome, False

    def read_file(self, path: str, max_bytes: int | None = None) -> bytes | None:
        """Read a workspace file (links leading outside are refused)."""
        target = self._inside(path)
        if not target.is_file():
            return None
        with open(target, "rb") as handle:
            return handle.read(max_bytes if max_bytes is not None else DEFAULT_READ_BYTES)

    def close(self) -> None:
        """Delete the workspace (idempotent)."""
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None
