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

import re
from collections.abc import Iterable

from codeproof.languages import registry


def source_of_test(language: str, tests: dict[str, str], name: str) -> str | None:
    """The source of the test ``name`` reports, when exactly one file holds it."""
    locate = registry.language_for(language).editing.locate_test
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
    remover = registry.language_for(language).editing.remove_test
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
