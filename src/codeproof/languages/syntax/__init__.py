"""One small, language-free API over tree-sitter: parse, then ask.

>>> tree = parse("javascript", "test('adds', () => { assert.equal(add(1, 2), 3); });")
>>> [case.name for case in tree.tests()]
['adds']
>>> [(c.name, c.arguments.text) for c in tree.calls({"add"})]
[('add', '(1, 2)')]

A language registers a :class:`Grammar` (``languages/<name>/syntax.py``); this package
never branches on a language's name. Comments, strings, template literals, regular
expressions and text blocks are the parser's business, so none of them can be mistaken
for code here. Unfinished or broken code still parses: the tree marks what is missing
(:attr:`Tree.has_error`, :meth:`Tree.errors`) and keeps everything around it.

Python sources that :mod:`ast` reads are best read with :mod:`ast`; the Python grammar
serves the ones it cannot (partial replies, a file broken in one place).
"""

from __future__ import annotations

import tree_sitter

from codeproof.languages.syntax.grammar import (
    NO_VALUE,
    Assertion,
    Call,
    CallParts,
    Case,
    Declaration,
    Export,
    Grammar,
    Value,
)
from codeproof.languages.syntax.registry import find_grammar, grammar_for, register
from codeproof.languages.syntax.tree import Node, Span, Tree

__all__ = [
    "NO_VALUE",
    "Assertion",
    "Call",
    "CallParts",
    "Case",
    "Declaration",
    "Export",
    "Grammar",
    "Node",
    "Span",
    "Tree",
    "Value",
    "call_key",
    "find_grammar",
    "grammar_for",
    "parse",
    "parse_expression",
    "register",
]

_LANGUAGES: dict[str, tree_sitter.Language] = {}


def _parser(grammar: Grammar) -> tree_sitter.Parser:
    language = _LANGUAGES.get(grammar.name)
    if language is None:
        language = _LANGUAGES[grammar.name] = tree_sitter.Language(grammar.language())
    return tree_sitter.Parser(language)


def _grammar(language: str | Grammar) -> Grammar:
    return language if isinstance(language, Grammar) else grammar_for(language)


def parse(language: str | Grammar, source: str) -> Tree:
    """The tree of ``source`` (never fails: errors are marked in the tree)."""
    grammar = _grammar(language)
    return Tree(grammar, source, _parser(grammar).parse(source.encode()))


def parse_expression(language: str | Grammar, text: str) -> Node | None:
    """The expression ``text`` is, or ``None`` unless it is exactly one well-formed
    expression (surrounding blanks allowed). Spans count from the start of ``text``."""
    grammar = _grammar(language)
    head, tail = grammar.embed
    whole = head + text + tail
    tree = Tree(
        grammar,
        whole,
        _parser(grammar).parse(whole.encode()),
        slice(len(head), len(head) + len(text)),
    )
    if tree.has_error:
        return None
    inner = text.strip()
    start = len(text) - len(text.lstrip())
    return tree.node_at(start, start + len(inner)) if inner else None


def call_key(language: str, call: str) -> str:
    """One text for the calls that differ only in how their literal arguments are
    written: ``slugify('a b', 2)`` and ``slugify("a b",2)`` are one call (a user's
    example and a designed test restating it). Arguments that are no literal keep their
    text; anything that is not one call keeps ``call`` with its blanks normalized."""
    grammar = find_grammar(language)
    node = parse_expression(grammar, call) if grammar is not None else None
    parsed = node.as_call() if node is not None else None
    if parsed is None:
        return " ".join(call.split())
    receiver = " ".join(parsed.receiver.text.split()) + "." if parsed.receiver else ""
    args = []
    for arg in parsed.args:
        ok, value = arg.value()
        args.append(repr(value) if ok else " ".join(arg.text.split()))
    return f"{receiver}{parsed.name}({', '.join(args)})"
