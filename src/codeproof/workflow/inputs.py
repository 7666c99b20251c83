"""Validation of a request and its options before anything is created."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from codeproof.core.errors import InputError, UnknownLanguageError
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
