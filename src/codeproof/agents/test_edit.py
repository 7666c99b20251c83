"""Remove single tests from a test file, by the names a test report gives them.

Used to quarantine tests that the execution evidence says are wrong (see
:mod:`codeproof.workflow.selection`): the test is cut out of the file, so the project a
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
from collections.abc import Callable, Iterable

Remover = Callable[[str, str], str | None]
"""``(source, report name) -> source without that test``, or ``None`` when not found."""


def _python_target(name: str) -> tuple[str | None, str]:
    """(class, function) a pytest report name points at."""
    parts = name.split("[", 1)[0].split(".")
    function = parts[-1]
    owner = parts[-2] if len(parts) >= 2 and parts[-2][:1].isupper() else None
    return owner, function


def remove_python_test(source: str, name: str) -> str | None:
    """Cut the test function (decorators included) that ``name`` reports."""
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
    if len(matches) != 1 or matches[0].end_lineno is None:
        return None
    node = matches[0]
    start = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
    lines = source.splitlines()
    text = "\n".join(lines[:start] + lines[node.end_lineno :]) + "\n"
    if owner is not None and not _parses(text):  # the class is left empty
        indent = " " * (node.col_offset)
        text = "\n".join([*lines[:start], indent + "pass", *lines[node.end_lineno :]]) + "\n"
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


def remove_javascript_test(source: str, name: str) -> str | None:
    """Cut the ``test(...)``/``it(...)`` call titled with the last part of ``name``."""
    title = name.split(" > ")[-1]
    quoted = "|".join(re.escape(q + title + q) for q in _STRING_QUOTES)
    calls = list(re.finditer(rf"\b(?:test|it)\s*\(\s*(?:{quoted})", source))
    if len(calls) != 1:
        return None
    opening = source.index("(", calls[0].start())
    closing = _matching(source, opening, "(", ")")
    if closing is None:
        return None
    return _cut(source, calls[0].start(), closing + 1)


def remove_java_test(source: str, name: str) -> str | None:
    """Cut the ``@Test`` method (its annotations included) that ``name`` reports."""
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
    if closing is None:
        return None
    return _cut(source, found[0].start(), closing + 1)


REMOVERS: dict[str, Remover] = {
    "python": remove_python_test,
    "javascript": remove_javascript_test,
    "java": remove_java_test,
}


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
