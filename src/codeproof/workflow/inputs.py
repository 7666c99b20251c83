"""Validation of a request and its options before anything is created."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from codeproof.core.errors import InputError, UnknownLanguageError
from codeproof.core.types import Module, Spec
from codeproof.toolchains.router import canonical_language
from codeproof.workflow.assemble import is_codeproof_output

MAX_REQUEST_BYTES = 50 * 1024


def validate_request(request: str) -> str:
    """The request, stripped, if it is usable text.

    Raises:
        InputError: Empty or whitespace only, larger than 50 KB, or binary (NUL bytes,
            undecodable bytes or control characters).
    """
    size = len(request.encode("utf-8", "surrogateescape"))
    if size > MAX_REQUEST_BYTES:
        raise InputError(
            f"the request is {size // 1024} KB; the limit is {MAX_REQUEST_BYTES // 1024} KB",
            hint="shorten the request to the essentials",
        )
    if any(_binary(ch) for ch in request):
        raise InputError(
            "the request contains binary data (NUL, undecodable or control characters)",
            hint="pass plain UTF-8 text",
        )
    text = request.strip()
    if not text:
        raise InputError(
            "the request is empty", hint='describe what to build, e.g. "a slugify function"'
        )
    return text


def _binary(ch: str) -> bool:
    if ch in "\t\n\r":
        return False
    if "\udc80" <= ch <= "\udcff":  # an undecodable byte (surrogateescape)
        return True
    return unicodedata.category(ch) in ("Cc", "Cs")


def validate_language(language: str | None, known: list[str]) -> str | None:
    """The canonical name of ``language`` if a toolchain serves it (``None`` stays ``None``).

    Raises:
        UnknownLanguageError: No toolchain serves it.
    """
    if language is None:
        return None
    canonical = canonical_language(language)
    if canonical not in known:
        raise UnknownLanguageError(language, known)
    return canonical


def validate_out_dir(out_dir: Path) -> Path:
    """``out_dir`` (absolute) if a project can be written there.

    Raises:
        InputError: It is a file, or a non-empty directory that is not a previous
            codeproof output (which would be replaced).
    """
    path = out_dir.absolute()
    if path.exists() and not path.is_dir():
        raise InputError(f"{path} exists and is not a directory", hint="choose another --out")
    if path.is_dir() and any(path.iterdir()) and not is_codeproof_output(path):
        raise InputError(
            f"{path} is not empty and is not a previous codeproof output",
            hint="choose an empty or new directory for --out",
        )
    return path


class SpecFile(BaseModel):
    """What ``codeproof new --spec FILE`` reads: a specification, and optionally the
    modules to build (then no model proposes them)."""

    spec: Spec
    modules: list[Module] = Field(default_factory=list)


def read_spec_file(path: Path) -> SpecFile:
    """The spec (and modules) of a JSON file: ``{"spec": {...}, "modules": [...]}``, or
    a bare spec object.

    Raises:
        InputError: The file is missing, not JSON, or not a valid spec.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"spec file {str(path)!r} not found", hint="check the path") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(
            f"spec file {str(path)!r} is not readable JSON ({exc})",
            hint='write {"spec": {...}, "modules": [...]} (see docs/workflow.md)',
        ) from exc
    body = data if isinstance(data, dict) and "spec" in data else {"spec": data}
    try:
        return SpecFile.model_validate(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise InputError(
            f"spec file {str(path)!r}: {where}: {first['msg']}",
            hint="fix that field (see docs/workflow.md for the format)",
        ) from exc
