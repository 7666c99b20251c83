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

:func:`drop_repeated` removes tests that repeat an earlier one but for their names: a
small model out of ideas restates its tests under new names (737 of the 3,081 Python
tests designed in the stored eval runs; ``test_flip_case_edge_case_upper`` repeating
``test_flip_case_upper``). A repeat adds no evidence, doubles the weight of its check in
the choice among drafts, and makes "passed 10/10" of five checks.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from codeproof.languages import registry
from codeproof.languages.syntax import Case, Node, Tree, find_grammar, parse


def source_of_test(language: str, tests: dict[str, str], name: str) -> str | None:
    """The source of the test ``name`` reports, when exactly one file holds it."""
    locate = registry.language_for(language).editing.locate_test
    found = [src[span[0] : span[1]] for src in tests.values() if (span := locate(src, name))]
    return found[0] if len(found) == 1 else None


def naming(
    language: str, tests: dict[str, str], names: Iterable[str], wanted: Collection[str]
) -> frozenset[str]:
    """The tests among ``names`` (as reported) whose source names one of ``wanted`` as a
    name token (an error class: ``assertThrows(IllegalArgumentException.class, ...)``,
    ``pytest.raises(ValueError)``); none where the language has no grammar."""
    grammar = find_grammar(language)
    if grammar is None or not wanted:
        return frozenset()
    found = set()
    for name in names:
        source = source_of_test(language, tests, name)
        if source and any(n.text in wanted for n in parse(grammar, source).names()):
            found.add(name)
    return frozenset(found)


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
            files[path] = _tidy(new, ends_with_newline=files[path].endswith("\n"))
            removed.extend(members)
    return files, removed


def _tidy(text: str, *, ends_with_newline: bool) -> str:
    """At most two blank lines in a row, and none left at the end where a test was cut
    (a line of blanks only counts as blank: small models indent their empty lines)."""
    text = re.sub(r"\n(?:[ \t]*\n){3,}", "\n\n\n", text)
    return text.rstrip() + "\n" if ends_with_newline else text


def repeated(language: str, source: str) -> list[Case]:
    """The tests of ``source`` that repeat an earlier test of the same suite: the same
    text (blanks aside) but for the name; decorators, annotations and parameters count.
    None without a grammar for ``language``."""
    if find_grammar(language) is None:
        return []
    seen: set[tuple[tuple[str, ...], str]] = set()
    found = []
    for case in parse(language, source).tests():
        key = (case.suite, _unnamed(case))
        if key in seen:
            found.append(case)
        seen.add(key)
    return found


def _unnamed(case: Case) -> str:
    text, name = case.node.text, case.name_node
    if name is not None and case.node.contains(name):
        at = name.start - case.node.start
        text = text[:at] + text[at + len(name.text) :]
    return " ".join(text.split())


def drop_repeated(language: str, tests: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """The test files without the tests that repeat an earlier one (:func:`repeated`),
    and the names dropped. A file is left as it is unless the cut leaves every other
    test and no new syntax error."""
    files, dropped = dict(tests), list[str]()
    for path, source in tests.items():
        cases = repeated(language, source)
        if not cases:
            continue
        cut = _without(source, [case.node.statement or case.node for case in cases])
        before, after = parse(language, source), parse(language, cut)
        kept = len(after.tests()) == len(before.tests()) - len(cases)
        if kept and len(after.errors()) <= len(before.errors()):
            files[path] = cut
            dropped.extend(case.name for case in cases)
    return files, dropped


def drop_foreign(
    language: str, tests: dict[str, str], own: Collection[str], foreign: Collection[str]
) -> tuple[dict[str, str], list[str]]:
    """The test files without the tests that name one of ``foreign`` (another module's
    names) and none of ``own`` (the module's): they test no code of this module, which
    no draft of it can pass or fail, and the names dropped. Kept as they are without a
    grammar, without ``own`` names, or where the cut would leave no test in a file.

    Session 40's own request: the tests of ``reading`` (``describe``) restated those of
    its dependency ``temperature`` with wrong values (``to_fahrenheit(32) == 0.0``), and
    ``temperature``'s tests called ``describe``, which ``reading`` builds; every draft of
    either failed them."""
    if find_grammar(language) is None or not own:
        return dict(tests), []
    files, dropped = dict(tests), list[str]()
    for path, source in tests.items():
        tree = parse(language, source)
        cases = tree.tests()
        cut = [c for c in cases if _names_only(tree, c, set(own), set(foreign))]
        if not cut or len(cut) == len(cases):
            continue
        files[path] = _without(source, [case.node.statement or case.node for case in cut])
        dropped.extend(case.name for case in cut)
    return files, dropped


def _names_only(tree: Tree, case: Case, own: set[str], foreign: set[str]) -> bool:
    names = {n.text for n in tree.names(within=case.node)}
    return bool(names & foreign) and not names & own


def _without(source: str, nodes: list[Node]) -> str:
    """``source`` without ``nodes``: each from the start of its line (indentation)
    through the end of its line."""
    text = source
    for node in sorted(nodes, key=lambda n: n.start, reverse=True):
        start = text.rfind("\n", 0, node.start) + 1
        if text[start : node.start].strip():
            start = node.start  # something else precedes it on its line
        end = text.find("\n", node.end)
        end = len(text) if end < 0 or text[node.end : end].strip() else end + 1
        blank_before = start == 0 or text[: start - 1].rsplit("\n", 1)[-1].strip() == ""
        if blank_before and text[end:].startswith("\n"):
            end += 1  # one blank line between the neighbours, as before
        text = text[:start] + text[end:]
    return _tidy(text, ends_with_newline=source.endswith("\n"))
