"""Locating and removing ``node:test`` tests by the names a report gives them
(``describe > ... > title``), with the syntax facade."""

from __future__ import annotations

from codeproof.languages.base import EXAMPLE_TITLE, Span, failure_type
from codeproof.languages.syntax import Case, edit, parse


def find_javascript_test(source: str, name: str) -> Case | None:
    """The ``test(...)``/``it(...)`` call titled with the last part of ``name`` (the
    ``describe`` titles before it tell apart tests of the same title), if exactly one."""
    *suite, title = name.split(" > ")
    found = [c for c in parse("javascript", source).tests() if c.name == title]
    if len(found) > 1 and suite:
        found = [c for c in found if list(c.suite[-len(suite) :]) == suite]
    return found[0] if len(found) == 1 else None


def locate_javascript_test(source: str, name: str) -> Span | None:
    """The ``test(...)``/``it(...)`` call (as far as its closing bracket) ``name`` reports."""
    found = find_javascript_test(source, name)
    return None if found is None else (found.node.start, found.node.end)


def remove_javascript_test(source: str, name: str) -> str | None:
    """``source`` without the test ``name`` reports (its statement and lines)."""
    found = find_javascript_test(source, name)
    return None if found is None else edit.remove(source, [found.node])


def is_example_test(name: str) -> bool:
    """Whether a ``node:test`` report name (``suite > title``) is one of the user's
    examples: its title starts as generated example tests' and worked examples' do."""
    return name.split(" > ")[-1].startswith(f"{EXAMPLE_TITLE} ")


def is_assertion(message: str) -> bool:
    """Whether a ``node:test`` failure is a failed ``assert`` rather than a crash."""
    return failure_type(message) == "AssertionError"
