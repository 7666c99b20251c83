"""A thread's assembled project: its files, its report, and a zip of it."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

from codeproof.core.errors import ConflictError
from codeproof.core.reports import RunReport
from codeproof.workflow.assemble import REPORT_JSON

MAX_FILE_BYTES = 1_000_000


def assembled(out_dir: str | None, thread_id: str) -> Path:
    """The project directory of a finished run.

    Raises:
        ConflictError: The run has not assembled its project (yet).
    """
    path = Path(out_dir) if out_dir else None
    if path is None or not (path / REPORT_JSON).is_file():
        raise ConflictError(
            f"thread {thread_id} has no project yet", hint="wait until its run is done"
        )
    return path


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink())


def zip_bytes(root: Path) -> bytes:
    """The project as a zip (paths relative to the project)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in _files(root):
            archive.write(path, path.relative_to(root).as_posix())
    return buffer.getvalue()


def read_files(root: Path) -> dict[str, str]:
    """Every text file of the project (path -> content); binary or huge files are noted."""
    out: dict[str, str] = {}
    for path in _files(root):
        rel = path.relative_to(root).as_posix()
        if path.stat().st_size > MAX_FILE_BYTES:
            out[rel] = f"(not shown: {path.stat().st_size} bytes)"
            continue
        try:
            out[rel] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            out[rel] = "(binary file, not shown)"
    return out


def report(root: Path) -> RunReport:
    return RunReport.model_validate(json.loads((root / REPORT_JSON).read_text(encoding="utf-8")))


def report_json(root: Path) -> dict[str, Any]:
    data: dict[str, Any] = report(root).model_dump(mode="json")
    return data
