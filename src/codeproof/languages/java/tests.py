"""TODO-DOC"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath

from codeproof.languages.base import Span
from codeproof.languages.clike import matching


def locate_java_test(source: str, name: str) -> Span | None:
    """The ``@Test`` method (its annotations included) that ``name`` reports."""
    method = re.sub(r"\(.*\)$", "", name).split(".")[-1]
    pattern = r"((?:@\w+(?:\([^)]*\))?\s*)+)(?:public\s+|protected\s+|private\s+)?void\s+"
    found = [
        m
        for m in re.finditer(pattern + rf"{re.escape(method)}\s*\(", source)
        if "@Test" in m.group(1) or "@ParameterizedTest" in m.group(1)
    ]
    if len(found) != 1:
        return None
    body = source.find("{", found[0].end())
    closing = matching(source, body, "{", "}") if body >= 0 else None
    return None if closing is None else (found[0].start(), closing + 1)


_JAVA_METHOD = re.compile(
    r"((?:@\w+(?:\([^)]*\))?\s*)+)(?:public\s+|protected\s+|private\s+)?void\s+(\w+)\s*\("
)


_JAVAC_ERROR = re.compile(r"(?:^|[\s;:])([\w./$-]+\.java):(\d+): (?:error: )?")


def java_tests_at(source: str, lines: Iterable[int]) -> list[str]:
    """The ``@Test`` methods of ``source`` whose text spans one of ``lines`` (1-based)."""
    spans = []
    for match in _JAVA_METHOD.finditer(source):
        if "@Test" not in match.group(1) and "@ParameterizedTest" not in match.group(1):
            continue
        body = source.find("{", match.end())
        closing = matching(source, body, "{", "}") if body >= 0 else None
        if closing is not None:
            first = source.count("\n", 0, match.start()) + 1
            spans.append((first, source.count("\n", 0, closing) + 1, match.group(2)))
    found = [name for line in lines for first, last, name in spans if first <= line <= last]
    return list(dict.fromkeys(found))


def uncompiled_java_tests(message: str, tests: Mapping[str, str]) -> list[str]:
    """The test methods that javac's errors (``File.java:12: ...`` in a report's
    ``message``) point into; errors in other files (the code's) are ignored."""
    lines: dict[str, list[int]] = {}
    for match in _JAVAC_ERROR.finditer(message):
        lines.setdefault(PurePosixPath(match.group(1)).name, []).append(int(match.group(2)))
    found = [
        name
        for path, source in tests.items()
        for name in java_tests_at(source, lines.get(PurePosixPath(path).name, []))
    ]
    return list(dict.fromkeys(found))
