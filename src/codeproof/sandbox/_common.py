"""Helpers shared by the backends: paths, tar archives, bounded output, sizes."""

from __future__ import annotations

import io
import re
import tarfile
import time
from collections.abc import Mapping
from pathlib import PurePosixPath

from codeproof.core.errors import ConfigError, InputError
from codeproof.sandbox.base import RunResult

TRUNCATION_MARKER = "\n[codeproof: output truncated, {dropped} more bytes dropped]\n"
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}


def parse_size(text: str | int) -> int:
    """Bytes of a size such as ``512m``, ``1g``, ``300k`` or a plain integer.

    Raises:
        ConfigError: The text is not a size.
    """
    if isinstance(text, int):
        return text
    match = _SIZE.match(text)
    if not match:
        raise ConfigError(f"invalid size {text!r}", hint="use a number with k, m or g, e.g. 512m")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def workspace_path(path: str) -> PurePosixPath:
    """Validate a workspace-relative path (no absolute path, no ``..``, not empty).

    Raises:
        InputError: The path would leave the workspace.
    """
    pure = PurePosixPath(path)
    if not path or pure.is_absolute() or ".." in pure.parts or str(pure) in (".", ""):
        raise InputError(
            f"workspace path {path!r} is not a relative path inside the workspace",
            hint="use paths such as 'src/main.py' (no leading '/', no '..')",
        )
    return pure


def files_to_tar(files: Mapping[str, str | bytes], uid: int = 1000) -> bytes:
    """A tar archive of ``files`` owned by ``uid`` (validated paths)."""
    buffer = io.BytesIO()
    now = time.time()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, content in files.items():
            data = content.encode() if isinstance(content, str) else content
            info = tarfile.TarInfo(str(workspace_path(name)))
            info.size = len(data)
            info.mode = 0o755 if data.startswith(b"#!") else 0o644
            info.uid = info.gid = uid
            info.mtime = int(now)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


class BoundedBuffer:
    """Keeps the first ``limit`` bytes of a stream and counts the rest."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._chunks: list[bytes] = []
        self._kept = 0
        self.dropped = 0

    def feed(self, data: bytes) -> None:
        """Add bytes; anything past the limit is counted, not stored."""
        room = self.limit - self._kept
        if room > 0:
            self._chunks.append(data[:room])
            self._kept += min(room, len(data))
        self.dropped += max(0, len(data) - max(room, 0))

    @property
    def truncated(self) -> bool:
        """Whether bytes were dropped."""
        return self.dropped > 0

    def data(self) -> bytes:
        """The kept bytes."""
        return b"".join(self._chunks)

    def text(self) -> str:
        """The kept bytes as text (invalid UTF-8 replaced) plus a marker when truncated."""
        text = self.data().decode("utf-8", errors="replace")
        if self.truncated:
            text += TRUNCATION_MARKER.format(dropped=self.dropped)
        return text


def make_result(
    *,
    exit_code: int,
    stdout: BoundedBuffer,
    stderr: BoundedBuffer,
    started: float,
    backend: str,
    timed_out: bool = False,
    oom_killed: bool = False,
) -> RunResult:
    """Assemble a :class:`RunResult` from the collected streams."""
    return RunResult(
        exit_code=exit_code,
        stdout=stdout.text(),
        stderr=stderr.text(),
        duration_s=round(time.monotonic() - started, 4),
        timed_out=timed_out,
        oom_killed=oom_killed,
        truncated=stdout.truncated or stderr.truncated,
        backend=backend,
        unsafe=backend == "unsafe-local",
    )
