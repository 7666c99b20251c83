"""Worked examples: the user's examples told in words, as steps and their results.

"Example: with capacity 2, put("a", 1), put("b", 2), get("a"), put("c", 3) evicts "b",
so keys() is [a, c]." No ``call -> result`` reader (:mod:`.examples`) can read that: it
is a scenario on an object, or a result stated in prose ("Friday 2024-03-01 plus 1
business day is Monday 2024-03-04"), or a rendered block after "renders as:". Such a
passage is still the user's word, so the transcriber (:mod:`codeproof.agents.transcriber`)
writes it as a test, and the test counts as a stated example (never set aside, and a
draft that fails it is never chosen over one that passes) only when it is *grounded*:
every number and string it uses is written in the passage (or is a module path or a test
title). A test that brings a value of its own checks something the user did not say.

A passage starts at "Example:", "Examples:", "For example" or "For instance" (with or
without its comma, at the start of a sentence or after a semicolon: "...and leaves the
order as it was; for example new Order().ship() throws ...") and runs to the end of its
paragraph, with the block that follows a paragraph ending in ":".
Passages whose every call of the interface is already read as a ``call -> result``
example are left to those readers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Sequence
from pathlib import PurePosixPath

from codeproof.contract.examples import stated_examples
from codeproof.core.signatures import declaring_part
from codeproof.core.types import Module
from codeproof.languages.base import EXAMPLE_TITLE
from codeproof.languages.syntax import parse
from codeproof.languages.syntax.edit import replace
from codeproof.languages.syntax.grammar import Value
from codeproof.languages.syntax.registry import find_grammar
from codeproof.languages.syntax.tree import Node

CUE = re.compile(
    r"(?:^|(?<=[.!?:;]\s)|(?<=\n))\s*(?:examples?\s*:|for (?:example|instance)\b,?)", re.I
)
_CONCRETE = re.compile(r"\d|[\"'`]")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")
_FENCE = re.compile(r"^\s*(```|~~~)")
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_DEFINED = re.compile(
    r"\b(?:class|interface|record|enum)\s+([A-Za-z_$][\w$]*)"
    r"|([A-Za-z_$][\w$]*)\s*\(|([A-Za-z_$][\w$]*)\.(?=[A-Za-z_$])"
)
_KEYWORDS = frozenset({"def", "function", "class", "new", "return", "async", "static", "public"})
MAX_PASSAGES = 3


def passages(words: str) -> list[str]:
    """The worked examples of ``words``, each from its cue to the end of its paragraph."""
    found = []
    for paragraph in _paragraphs(words):
        match = CUE.search(paragraph)
        if match is None:
            continue
        passage = paragraph[match.start() :].strip()
        if _CONCRETE.search(passage):
            found.append(passage)
    return found


def _paragraphs(words: str) -> list[str]:
    """Blank-line separated paragraphs; a fenced block joins the paragraph before it
    when that one ends with ":" (``renders as:`` and the block)."""
    out: list[str] = []
    current: list[str] = []
    fenced = False
    for line in words.splitlines():
        if _FENCE.match(line):
            if not fenced and not current and out and out[-1].rstrip().endswith(":"):
                current = [out.pop()]
            fenced = not fenced
            current.append(line)
            continue
        if not line.strip() and not fenced:
            if current:
                out.append("\n".join(current))
            current = []
            continue
        current.append(line)
    if current:
        out.append("\n".join(current))
    return out


def interface_words(module: Module) -> set[str]:
    """The names a module defines (its classes, functions and methods: not its
    parameters or types) and its own name."""
    found = _DEFINED.findall(declaring_part(module.public_interface))
    names = {name for match in found for name in match if name} | {module.name}
    return {n for n in names if len(n) > 2 and n not in _KEYWORDS}


def worked_examples(words: str, module: Module, modules: Sequence[Module]) -> list[str]:
    """The worked examples of ``words`` that are ``module``'s: the one module, or the last
    (in build order) of the modules whose names the passage uses: "after inv.add(...),
    to_csv(inv) gives" is the report's, which can use the store, not the store's.
    Passages already read as ``call -> result`` examples are left out."""
    mine = []
    for passage in passages(words):
        owner = _owner(passage, modules or [module])
        if owner is not None and owner.name == module.name and not _read(passage, module):
            mine.append(passage)
    return mine[:MAX_PASSAGES]


def _owner(passage: str, modules: Sequence[Module]) -> Module | None:
    if len(modules) == 1:
        return modules[0]
    used = set(_NAME.findall(passage))
    users = [m for m in modules if interface_words(m) & used]
    return users[-1] if users else None


def _read(passage: str, module: Module) -> bool:
    """Whether every call of the interface in ``passage`` is read as an example."""
    names = [n for n in interface_words(module) if re.search(rf"\b{re.escape(n)}\s*\(", passage)]
    calls = sum(len(re.findall(rf"(?<![\w$]){re.escape(n)}\s*\(", passage)) for n in names)
    return calls > 0 and len(stated_examples(passage, names)) >= calls


def marked(source: str, language: str) -> str:
    """``source`` with its tests' titles marked as the user's examples where tests have
    titles (a string, not a name): ``spec example (worked) 1: <title>``. Names need no
    mark: the file's name is (``Layout.worked_test_path``)."""
    grammar = find_grammar(language)
    if grammar is None:
        return source
    edits = []
    for i, case in enumerate(grammar.tests(parse(grammar, source)), 1):
        node = case.name_node
        if node is not None and node.text[:1] in "\"'`":
            title = json.dumps(f"{EXAMPLE_TITLE} (worked) {i}: {case.name}")
            edits.append((node.start, node.end, title))
    return replace(source, edits)


# -- grounding ------------------------------------------------------------------------


def ungrounded(source: str, language: str, stated: str, modules: Collection[str]) -> list[str]:
    """The literals of a test file that ``stated`` does not write (empty: grounded).

    Numbers count by value (``3`` is written by "2024-03-01"), strings when their text
    is in ``stated``; module paths (``require("./cart")``, ``require('node:test')``: the
    grammar's ``specifiers``) and the tests' own titles are not values of the example.
    Booleans and null say nothing of their own. js-cart at ``639a211``: the transcription
    of "after cart.addItem("pen", 150, 2) ... cart.total(10) is 1439" was exact, and was
    dropped for its ``require('node:test')``, as every JavaScript one requiring it was.
    """
    grammar = find_grammar(language)
    if grammar is None:
        return ["(no grammar to read the test with)"]
    tree = parse(grammar, source)
    titles = {c.name for c in grammar.tests(tree)} | {
        s for c in grammar.tests(tree) for s in c.suite
    }
    numbers = {float(n) for n in _NUMBER.findall(stated)}
    loads = set(grammar.specifiers(tree))
    out = []
    for value, text in _literals(grammar.literal, tree.root, skip=loads):
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int | float):
            if float(value) not in numbers and float(-value) not in numbers:
                out.append(text)
        elif isinstance(value, str) and not _stated_text(value, stated, titles, modules):
            out.append(text)
    return out


def _literals(
    literal: Callable[[Node], Value], root: Node, *, skip: Collection[Node] = ()
) -> list[tuple[object, str]]:
    """``(value, source text)`` of each scalar literal under ``root`` but those in ``skip``
    (``literal``: the grammar's reader of a literal's value)."""
    out: list[tuple[object, str]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node in skip:
            continue
        ok, value = literal(node) if node.named else (False, None)
        if ok and not isinstance(value, list | tuple | dict | set | frozenset):
            out.append((value, node.text))
            continue
        stack.extend(reversed(node.named_children))
    return out


def _stated_text(value: str, stated: str, titles: set[str], modules: Collection[str]) -> bool:
    return value in stated or value in titles or _module_path(value, modules)


def _module_path(value: str, modules: Collection[str]) -> bool:
    stem = PurePosixPath(value).stem.removesuffix(".test")
    return value.startswith((".", "/")) and stem in modules
