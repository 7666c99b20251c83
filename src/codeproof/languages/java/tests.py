"""Locating and removing JUnit 5 test methods by the names a report gives them
(``TestClass.method()``), and the methods javac's errors point into."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath

from codeproof.languages.base import WORKED_CLASS, Span, failure_type
from codeproof.languages.syntax import Case, edit, parse


def find_java_test(source: str, name: str) -> Case | None:
    """The ``@Test`` method ``TestClass.method()`` names (its class tells apart methods of
    the same name in nested classes), if exactly one."""
    *owner, method = name.split("(", 1)[0].split(".")
    found = [c for c in parse("java", source).tests() if c.name == method]
    if len(found) > 1 and owner:
        found = [c for c in found if c.suite[-1:] == (owner[-1],)]
    return found[0] if len(found) == 1 else None


def locate_java_test(source: str, name: str) -> Span | None:
    """The ``@Test`` method (its annotations included) that ``name`` reports."""
    found = find_java_test(source, name)
    return None if found is None else (found.node.start, found.node.end)


def remove_java_test(source: str, name: str) -> str | None:
    """``source`` without the test method ``name`` reports (and its lines)."""
    found = find_java_test(source, name)
    return None if found is None else edit.remove(source, [found.node])


_JAVAC_ERROR = re.compile(r"(?:^|[\s;:])([\w./$-]+\.java):(\d+): (?:error: )?")


def java_tests_at(source: str, lines: Iterable[int]) -> list[str]:
    """The ``@Test`` methods of ``source`` whose text spans one of ``lines`` (1-based)."""
    spans = [(c.node.span, c.name) for c in parse("java", source).tests()]
    found = [
        name for line in lines for span, name in spans if span.start_line <= line <= span.end_line
    ]
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


def is_example_test(name: str) -> bool:
    """Whether a JUnit report name (``ClassTest.method()``) is a test of the user's worked
    examples (Java's stated examples are probed, not generated as tests)."""
    parts = name.partition("(")[0].split(".")
    return len(parts) == 2 and parts[0].endswith(WORKED_CLASS)


def is_assertion(message: str) -> bool:
    """Whether a JUnit failure is a failed assertion (``AssertionFailedError``...) rather
    than an exception the code threw."""
    return failure_type(message) in _CHECK_TYPES


_CHECK_TYPES = frozenset({"AssertionFailedError", "AssertionError", "MultipleFailuresError"})
