"""Names of the files a toolchain puts in the workspace beside the user's code.

They live under the reserved directory :data:`WORK_DIR` and carry a random part, so the
code under test cannot guess them (a forged test report); the output a toolchain returns
writes them without it (:func:`steady_names`), so the same code and tests give the same
output.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

WORK_DIR = ".codeproof"
"""Workspace directory reserved for the toolchain's own files (reports, helper scripts)."""

_RANDOM = 12
"""Hexadecimal digits of a fresh name's random part."""
_HEX = frozenset("0123456789abcdef")


def fresh_name(stem: str, suffix: str = "") -> str:
    """A unique workspace path under :data:`WORK_DIR` (the code under test cannot guess it)."""
    return f"{WORK_DIR}/{stem}-{uuid.uuid4().hex[:_RANDOM]}{suffix}"


def steady_names(output: str, paths: Iterable[str]) -> str:
    """``output`` with each of ``paths`` (made by :func:`fresh_name`) written without its
    random part. The names stay unguessable while the code runs, yet a rerun of the same
    code and tests prints the same output: pytest names its report
    (``generated xml file: .../pytest-29c11eaa6400.xml``), and a repair prompt quoting
    that tail differed between identical runs, so it was never answered from the
    response cache."""
    for path in paths:
        parts = path.split("/")
        for i, part in enumerate(parts):  # a fresh directory holds the file (JUnit's)
            steady = _without_random(part)
            if steady != part:
                output = output.replace("/".join(parts[: i + 1]), "/".join([*parts[:i], steady]))
    return output


def _without_random(name: str) -> str:
    stem, _, rest = name.rpartition("-")
    if stem and len(rest) >= _RANDOM and all(c in _HEX for c in rest[:_RANDOM]):
        return stem + rest[_RANDOM:]
    return name
