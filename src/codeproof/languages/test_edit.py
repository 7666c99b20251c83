"""Remove single tests from a test file, by the names a test report gives them.

Used to quarantine tests that the execution evidence says are wrong (see
:mod:`codeproof.choosing.selection`): the test is cut out of the file, so the project a
user receives runs exactly the tests the report counts. Names come from the JUnit
reports of the toolchains:

- Python (pytest): ``test_mod.test_name`` or ``test_mod.TestClass.test_name``; a
  parametrized case ends in ``[...]`` and is removed only with its whole function;
- JavaScript (``node:test``): ``describe > ... > test name``;
- Java (JUnit 5): ``TestClass.method()`` or ``TestClass.method``.

A name that cannot be found exactly once is left alone: removing the wrong test would be
worse than keeping a disputed one.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import PurePosixPath

Span = tuple[int, int]
"""``(start, end)`` character offsets of one test in its file."""
Locator = Callable[[str, str], Span | None]
"""``(source, report name) -> span of that test``, or ``None`` unless found exactly once."""


def _python_target(name: str) -> tuple[str | None, str]:
    """(class, function) a pytest report name points at."""
    parts = name.split("[", 1)[0].split(".")
    function = parts[-1]
    owner = parts[-2] if len(parts) >= 2 and parts[-2][:1].isupper() else None
    return owner, function


def _python_node(source: str, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    owner, function = _python_target(name)
    body: list[ast.stmt] = tree.body
    if owner is not None:
        classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == owner]
        if len(classes) != 1:
            return None
        body = classes[0].body
    matches = [
        n
        for n in body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == function
    ]
    return matches[0] if len(matches) == 1 and matches[0].end_lineno is not None else None


def _line_offsets(source: str) -> list[int]:
    offsets = [0]
    for line in source.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    return offsets


def locate_python_test(source: str, name: str) -> Span | None:
    """The whole lines of the test function (decorators included) ``name`` reports."""
    node = _python_node(source, name)
    if node is None or node.end_lineno is None:
        return None
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
    offsets = _line_offsets(source)
    return offsets[first], offsets[min(node.end_lineno, len(offsets) - 1)]


def remove_python_test(source: str, name: str) -> str | None:
    """Cut the test function that ``name`` reports (a class left empty gets ``pass``)."""
    span, node = locate_python_test(source, name), _python_node(source, name)
    if span is None or node is None:
        return None
    text = source[: span[0]] + source[span[1] :]
    if not _parses(text):  # the class is left empty
        text = source[: span[0]] + " " * node.col_offset + "pass\n" + source[span[1] :]
    return text if _parses(text) else None


def _parses(source: str) -> bool:
    try:
        ast.parse(source)
    except SyntaxError:
        return False
    return True


_STRING_QUOTES = "'\"`"


def _skip_literal(source: str, i: int) -> int:
    """The index after the string literal or comment starting at ``i`` (else ``i``)."""
    ch = source[i]
    if ch in _STRING_QUOTES:
        j = i + 1
        while j < len(source) and source[j] != ch:
            j += 2 if source[j] == "\\" else 1
        return j + 1
    if source.startswith("//", i):
        end = source.find("\n", i)
        return len(source) if end < 0 else end
    if source.startswith("/*", i):
        end = source.find("*/", i + 2)
        return len(source) if end < 0 else end + 2
    return i


def _matching(source: str, i: int, open_ch: str, close_ch: str) -> int | None:
    """The index of the bracket closing the one at ``i`` (strings and comments skipped)."""
    depth = 0
    while i < len(source):
        skipped = _skip_literal(source, i)
        if skipped != i:
            i = skipped
            continue
        if source[i] == open_ch:
            depth += 1
        elif source[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def _cut(source: str, start: int, end: int) -> str:
    """Remove ``source[start:end]`` plus a trailing ``;`` and the rest of that line."""
    tail = re.match(r"[ \t]*;?[ \t]*\n?", source[end:])
    end += tail.end() if tail else 0
    line_start = source.rfind("\n", 0, start) + 1
    if not source[line_start:start].strip():
        start = line_start
    return source[:start] + source[end:]


def locate_javascript_test(source: str, name: str) -> Span | None:
    """The ``test(...)``/``it(...)`` call titled with the last part of ``name``."""
    title = name.split(" > ")[-1]
    quoted = "|".join(re.escape(q + title + q) for q in _STRING_QUOTES)
    calls = list(re.finditer(rf"\b(?:test|it)\s*\(\s*(?:{quoted})", source))
    if len(calls) != 1:
        return None
    opening = source.index("(", calls[0].start())
    closing = _matching(source, opening, "(", ")")
    return None if closing is None else (calls[0].start(), closing + 1)


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
    closing = _matching(source, body, "{", "}") if body >= 0 else None
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
        closing = _matching(source, body, "{", "}") if body >= 0 else None
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


def _c_like_remover(locate: Locator) -> Callable[[str, str], str | None]:
    def remove(source: str, name: str) -> str | None:
        span = locate(source, name)
        return None if span is None else _cut(source, *span)

    return remove


LOCATORS: dict[str, Locator] = {
    "python": locate_python_test,
    "javascript": locate_javascript_test,
    "java": locate_java_test,
}
REMOVERS: dict[str, Callable[[str, str], str | None]] = {
    "python": remove_python_test,
    "javascript": _c_like_remover(locate_javascript_test),
    "java": _c_like_remover(locate_java_test),
}


def source_of_test(language: str, tests: dict[str, str], name: str) -> str | None:
    """The source of the test ``name`` reports, when exactly one file holds it."""
    locate = LOCATORS[language]
    found = [src[span[0] : span[1]] for src in tests.values() if (span := locate(src, name))]
    return found[0] if len(found) == 1 else None


def remove_tests(
    language: str,
    tests: dict[str, str],
    names: Iterable[str],
    reported: Iterable[str] = (),
) -> tuple[dict[str, str], list[str]]:
    """Remove the tests called ``names`` from the test files ``tests`` (path -> source).

    A parametrized test (``name[case]``) is removed only when every one of its cases in
    ``reported`` (all the names of the report) is to be removed.

    Returns:
        The new test files and the names actually removed (each from exactly one file).
    """
    remover = REMOVERS[language]
    wanted = list(dict.fromkeys(names))
    groups: dict[str, list[str]] = {}
    for name in wanted:
        groups.setdefault(name.split("[", 1)[0], []).append(name)
    for name in reported:
        base = name.split("[", 1)[0]
        if base in groups and name not in groups[base]:
            groups[base] = []  # a case that stays: keep the whole function
    files = dict(tests)
    removed: list[str] = []
    for members in groups.values():
        if not members:
            continue
        hits = [(path, new) for path, src in files.items() if (new := remover(src, members[0]))]
        if len(hits) == 1:
            path, new = hits[0]
            files[path] = re.sub(r"\n{4,}", "\n\n\n", new)
            removed.extend(members)
    return files, removed
