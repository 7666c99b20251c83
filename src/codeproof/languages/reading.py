"""What is read from code without running it: public signatures and test examples.

A leaf module: language packages return these types; :mod:`.signatures` asks each
language for them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from codeproof.languages.syntax import Case, Declaration, Node, parse


@dataclass(frozen=True)
class Signature:
    """One public function, method or class."""

    name: str
    signature: str
    doc: str = ""
    file: str = ""


@dataclass(frozen=True)
class Example:
    """One test case's source, usable as a usage example."""

    name: str
    code: str


@dataclass(frozen=True)
class Declared:
    """What one project module's stated interface declares (read from its text, not code).

    Attributes:
        module: The module's name (what tests import it by).
        functions: Its top-level functions.
        classes: Its classes, each with the methods the interface lists for it.
        loose: Bare names written beside a class: a function or one of its methods.
    """

    module: str
    functions: frozenset[str] = frozenset()
    classes: Mapping[str, frozenset[str]] = field(default_factory=dict)
    loose: frozenset[str] = frozenset()

    def declares(self, name: str) -> bool:
        """Whether ``name`` is one of the module's top-level names (or may be)."""
        return name in self.functions or name in self.classes or name in self.loose


def sole_owner(name: str, declared: Sequence[Declared]) -> str | None:
    """The one module among ``declared`` that declares ``name`` (``None``: none, or
    several)."""
    owners = [d.module for d in declared if d.declares(name)]
    return owners[0] if len(owners) == 1 else None


SignatureReader = Callable[[str, str], list[Signature]]
ExampleReader = Callable[[str], list[Example]]


def first_line(doc: str | None) -> str:
    return doc.strip().splitlines()[0].strip() if doc and doc.strip() else ""


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def dedent(code: str) -> str:
    lines = code.strip("\n").splitlines()
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return "\n".join(line[cut:] for line in lines).strip()


def inner_text(brackets: Node | None) -> str:
    """A bracketed list's text without its brackets (``a, b`` of ``(a, b)``), on one line;
    a bare parameter (``x`` of ``x => x``) as it is."""
    if brackets is None:
        return ""
    text = brackets.text
    return squash(text[1:-1] if text[:1] in "([{" else text)


def case_example(case: Case) -> Example | None:
    """A test case's body (without its braces) as an example, if it has a body."""
    if case.body is None:
        return None
    text = case.body.text
    code = text[1:-1] if text.startswith("{") and text.endswith("}") else text
    return Example(case.name, dedent(code))


def definitions(language: str, code: str, name: str) -> list[Declaration]:
    """The functions (methods) called ``name`` that ``code`` defines with a body, in
    order; ``code`` may be a fragment (a reply, a prompt that stops mid-function)."""
    return [
        d
        for d in parse(language, code).declarations()
        if d.name == name and d.kind in ("function", "method") and d.body is not None
    ]
