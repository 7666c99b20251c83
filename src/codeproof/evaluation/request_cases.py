"""The request benchmark's data: requests as a user types them, with hidden acceptance tests.

Layout of the benchmark directory (``benchmarks/requests`` in the repository)::

    <id>/request.md     the request text, given verbatim to codeproof (and to one call)
    <id>/meta.json      language, stated files and names, number of checks
    <id>/acceptance/    the hidden acceptance tests (never shown to an agent)
    <id>/reference/     a hand-written solution that passes them

See ``benchmarks/requests/README.md``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from codeproof.core.errors import InputError
from codeproof.evaluation.datasets import Language

REQUESTS_SUBDIR = Path("benchmarks") / "requests"
META_FILE = "meta.json"
REQUEST_FILE = "request.md"
ACCEPTANCE_DIR = "acceptance"
REFERENCE_DIR = "reference"


class RequestMeta(BaseModel):
    """``meta.json`` of one request."""

    id: str
    language: Language
    title: str
    files: list[str] = Field(min_length=1)
    """The files the request names (where the acceptance tests import from)."""
    names: list[str] = Field(default_factory=list)
    """Functions, classes and methods the request names."""
    multi_module: bool = False
    notations: list[str] = Field(default_factory=list)
    """How the request states its examples (``f(x) -> y``, a table, ...)."""
    errors: list[str] = Field(default_factory=list)
    """The error behaviour the request states."""
    checks: int = Field(gt=0)
    """Test cases of the acceptance suite (a suite that fails to load scores 0 of these)."""


class RequestCase(BaseModel):
    """One request of the benchmark, loaded."""

    meta: RequestMeta
    text: str
    acceptance: dict[str, str]
    """Acceptance test files, path (relative to the project root) -> content."""

    @property
    def id(self) -> str:
        return self.meta.id

    @property
    def language(self) -> Language:
        return self.meta.language


def find_requests_dir(configured: Path | None = None, *, cwd: Path | None = None) -> Path:
    """The benchmark directory: ``configured``, else ``benchmarks/requests`` in the working
    directory, one of its parents, or the checkout codeproof runs from.

    Raises:
        InputError: None of them exists.
    """
    if configured is not None:
        if configured.is_dir():
            return configured
        raise InputError(
            f"no request benchmark at {configured}",
            hint="pass --requests-dir pointing at benchmarks/requests",
        )
    here = (cwd or Path.cwd()).resolve()
    checkout = Path(__file__).resolve().parents[3]
    for base in (here, *here.parents, checkout):
        candidate = base / REQUESTS_SUBDIR
        if candidate.is_dir():
            return candidate
    raise InputError(
        "cannot find benchmarks/requests in the working directory or its parents",
        hint="run from the repository, or pass --requests-dir",
    )


def _read_files(directory: Path) -> dict[str, str]:
    return {
        path.relative_to(directory).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def load_case(directory: Path) -> RequestCase:
    """One request directory.

    Raises:
        InputError: A file is missing or ``meta.json`` is invalid.
    """
    try:
        meta = RequestMeta.model_validate(
            json.loads((directory / META_FILE).read_text(encoding="utf-8"))
        )
        text = (directory / REQUEST_FILE).read_text(encoding="utf-8").strip()
    except FileNotFoundError as exc:
        raise InputError(
            f"{directory.name}: {Path(exc.filename or '').name} is missing",
            hint="each request directory holds request.md, meta.json and acceptance/",
        ) from exc
    except (ValueError, ValidationError) as exc:
        raise InputError(
            f"{directory / META_FILE}: not a valid request description ({exc.__class__.__name__})",
            hint="see benchmarks/requests/README.md for its fields",
        ) from exc
    if meta.id != directory.name:
        raise InputError(
            f"{directory / META_FILE}: id {meta.id!r} differs from the directory name",
            hint="make the id the directory's name",
        )
    acceptance = _read_files(directory / ACCEPTANCE_DIR)
    if not text or not acceptance:
        raise InputError(
            f"{directory.name}: empty request or no acceptance test",
            hint="each request directory holds request.md, meta.json and acceptance/",
        )
    return RequestCase(meta=meta, text=text, acceptance=acceptance)


def load_requests(root: Path, ids: Sequence[str] | None = None) -> list[RequestCase]:
    """Every request under ``root`` (sorted by id), or the ones named in ``ids``.

    Raises:
        InputError: An id is unknown, or a request directory is invalid.
    """
    known = sorted(p.name for p in root.iterdir() if (p / META_FILE).is_file())
    if not known:
        raise InputError(f"{root} holds no request", hint="pass --requests-dir")
    wanted = list(dict.fromkeys(ids)) if ids else known
    unknown = [i for i in wanted if i not in known]
    if unknown:
        raise InputError(
            f"unknown request id(s): {', '.join(unknown)}",
            hint=f"choose among: {', '.join(known)}",
        )
    return [load_case(root / i) for i in wanted]


def reference_files(root: Path, request_id: str) -> dict[str, str]:
    """The reference solution of a request (for the check that its suite is satisfiable)."""
    return _read_files(root / request_id / REFERENCE_DIR)
