"""File integrity: sha256, a verification sidecar, and quarantine of bad files.

The sidecar ``<file>.verified.json`` records sha256, size and mtime of a verified file
so later runs trust it without rehashing (``--verify`` and ``doctor`` may force it).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

from codeproof.core.errors import ModelIntegrityError

Progress = Callable[[int, int], None]
CHUNK = 8 * 1024 * 1024


def sha256_file(path: Path, progress: Progress | None = None) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    total, done = path.stat().st_size, 0
    with path.open("rb") as fh:
        while chunk := fh.read(CHUNK):
            digest.update(chunk)
            done += len(chunk)
            if progress:
                progress(done, total)
    return digest.hexdigest()


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".verified.json")


def record_verified(path: Path, sha256: str) -> None:
    """Remember that ``path`` (as it is now) has ``sha256``."""
    st = path.stat()
    doc = {"sha256": sha256, "size": st.st_size, "mtime_ns": st.st_mtime_ns}
    _sidecar(path).write_text(json.dumps(doc), encoding="utf-8")


def is_recorded_verified(path: Path, sha256: str | None) -> bool:
    """Whether the sidecar vouches for the file as it is now (no hashing)."""
    try:
        doc = json.loads(_sidecar(path).read_text(encoding="utf-8"))
        st = path.stat()
    except (OSError, ValueError):
        return False
    same_file = doc.get("size") == st.st_size and doc.get("mtime_ns") == st.st_mtime_ns
    return bool(same_file and (sha256 is None or doc.get("sha256") == sha256))


def quarantine(path: Path) -> Path:
    """Move a bad file aside so it is never used; return where it went."""
    target = path.with_name(path.name + ".corrupt")
    os.replace(path, target)
    _sidecar(path).unlink(missing_ok=True)
    return target


def verify_file(path: Path, *, sha256: str, size: int | None, force: bool = False) -> None:
    """Check size and sha256 (trusting a fresh sidecar unless ``force``).

    Raises:
        ModelIntegrityError: Mismatch; the file has been moved aside.
    """
    if not force and is_recorded_verified(path, sha256):
        return
    actual_size = path.stat().st_size
    actual = sha256_file(path) if size is None or actual_size == size else None
    if actual != sha256:
        moved = quarantine(path)
        what = f"size {actual_size} != {size}" if actual is None else f"sha256 {actual}"
        raise ModelIntegrityError(
            f"{path.name} failed verification ({what}, expected sha256 {sha256}); "
            f"moved aside to {moved.name}",
            path=str(path),
            hint="pull the model again (codeproof models pull NAME) or check the source",
        )
    record_verified(path, sha256)
