"""Parsed source: spans, nodes and trees over a tree-sitter parse.

Tree-sitter counts in UTF-8 bytes; callers slice Python strings. A :class:`Span` carries
both (``start``/``end`` are character offsets into the ``str`` that was parsed), so a
``é`` or an emoji before a node never shifts a cut.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import tree_sitter

from codeproof.languages.syntax.grammar import (
    NO_VALUE,
    Assertion,
    Call,
    Case,
    Declaration,
    Export,
    Value,
)

if TYPE_CHECKING:
    from codeproof.languages.syntax.grammar import Grammar


@dataclass(frozen=True)
class Span:
    """Where a node is: character and byte offsets (end exclusive) and 1-based lines."""

    start: int
    end: int
    start_line: int
    end_line: int
    start_byte: int
    end_byte: int


class Node:
    """One node of a :class:`Tree` (a thin view of a tree-sitter node)."""

    __slots__ = ("_raw", "tree")

    def __init__(self, tree: Tree, raw: tree_sitter.Node) -> None:
        self.tree = tree
        self._raw = raw

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and other.tree is self.tree and other._raw == self._raw

    def __hash__(self) -> int:
        return hash(self._raw)

    def __repr__(self) -> str:
        return f"Node({self.kind}, {self.text[:40]!r})"

    @property
    def kind(self) -> str:
        """The grammar's name of the node (``call_expression``, ``(``, ``ERROR``...)."""
        return self._raw.type

    @property
    def named(self) -> bool:
        """A named node (an anonymous one is a keyword or punctuation token)."""
        return self._raw.is_named

    @property
    def extra(self) -> bool:
        """A node the grammar allows anywhere (comments)."""
        return self._raw.is_extra

    @property
    def missing(self) -> bool:
        """A token the parser inserted to recover from an error (an unclosed ``}``)."""
        return self._raw.is_missing

    @property
    def error(self) -> bool:
        """An ``ERROR`` node or a missing token."""
        return self._raw.is_error or self._raw.is_missing

    @property
    def has_error(self) -> bool:
        """Whether the node or anything in it is an error."""
        return self._raw.has_error

    @property
    def start(self) -> int:
        return self.tree.char_offset(self._raw.start_byte)

    @property
    def end(self) -> int:
        return self.tree.char_offset(self._raw.end_byte)

    @property
    def span(self) -> Span:
        raw = self._raw
        return Span(
            self.start,
            self.end,
            raw.start_point.row + 1 - self.tree.line_shift,
            raw.end_point.row + 1 - self.tree.line_shift,
            raw.start_byte - self.tree.byte_shift,
            raw.end_byte - self.tree.byte_shift,
        )

    @property
    def text(self) -> str:
        shift = self.tree.char_shift
        return self.tree.text[self.start + shift : self.end + shift]

    @property
    def parent(self) -> Node | None:
        raw = self._raw.parent
        return None if raw is None else Node(self.tree, raw)

    @property
    def children(self) -> list[Node]:
        return [Node(self.tree, c) for c in self._raw.children]

    @property
    def named_children(self) -> list[Node]:
        """Named children, comments left out."""
        return [Node(self.tree, c) for c in self._raw.named_children if not c.is_extra]

    def field(self, name: str) -> Node | None:
        """The child the grammar calls ``name`` (``function``, ``arguments``, ``body``...)."""
        raw = self._raw.child_by_field_name(name)
        return None if raw is None else Node(self.tree, raw)

    def field_name(self, child: Node) -> str | None:
        """The grammar's field name of a direct ``child``."""
        for i, raw in enumerate(self._raw.children):
            if raw == child._raw:
                return self._raw.field_name_for_child(i)
        return None

    def walk(self) -> Iterator[Node]:
        """This node and everything in it, in source order."""
        stack = [self._raw]
        while stack:
            raw = stack.pop()
            yield Node(self.tree, raw)
            stack.extend(reversed(raw.children))

    def ancestors(self) -> Iterator[Node]:
        """The enclosing nodes, innermost first."""
        raw = self._raw.parent
        while raw is not None:
            yield Node(self.tree, raw)
            raw = raw.parent

    @property
    def statement(self) -> Node | None:
        """The statement that is this expression alone (with its ``;``), if it is one."""
        parent = self.parent
        if parent is None or parent.kind not in self.tree.grammar.statement_kinds:
            return None
        return parent if parent.named_children == [self] else None

    def contains(self, other: Node) -> bool:
        return self.start <= other.start and other.end <= self.end

    def as_call(self) -> Call | None:
        """The call this node is, if it is one."""
        parts = self.tree.grammar.call(self)
        return None if parts is None else Call(parts.name, self, parts.arguments, parts.receiver)

    def value(self) -> Value:
        """The node's value if it is a literal (:attr:`Grammar.literal`)."""
        return self.tree.grammar.literal(self)

    def constant(self) -> bool:
        """Whether the node refers to no variable (:attr:`Grammar.constant`)."""
        return self.tree.grammar.constant(self)


class Tree:
    """A parsed source and the language's reading of it (see :mod:`.grammar`)."""

    def __init__(
        self, grammar: Grammar, text: str, raw: tree_sitter.Tree, source: slice | None = None
    ) -> None:
        self.grammar = grammar
        self.text = text
        """The parsed text (for an embedded expression: with its embedding)."""
        self._raw = raw
        where = source or slice(0, len(text))
        self.source = text[where]
        """The text the caller gave (offsets and lines of spans count from its start)."""
        self.char_shift = where.start or 0
        self.line_shift = text.count("\n", 0, self.char_shift)
        self.byte_shift = len(text[: self.char_shift].encode())

    @property
    def root(self) -> Node:
        return Node(self, self._raw.root_node)

    @property
    def has_error(self) -> bool:
        """Whether the source does not parse cleanly (syntax error or unfinished code)."""
        return self._raw.root_node.has_error

    @cached_property
    def _chars(self) -> list[int] | None:
        """Character offset of every byte offset (``None`` for ASCII text)."""
        if self.text.isascii():
            return None
        table: list[int] = []
        for i, char in enumerate(self.text):
            table.extend([i] * len(char.encode()))
        table.append(len(self.text))
        return table

    def char_offset(self, byte: int) -> int:
        """The character offset (in :attr:`source`) of a byte offset of the parse."""
        chars = self._chars
        return (byte if chars is None else chars[byte]) - self.char_shift

    def nodes(self) -> Iterator[Node]:
        return self.root.walk()

    def errors(self) -> list[Node]:
        """``ERROR`` nodes and missing tokens, in source order."""
        out: list[Node] = []
        stack = [self._raw.root_node]
        while stack:
            raw = stack.pop()
            if raw.is_error or raw.is_missing:
                out.append(Node(self, raw))
            elif raw.has_error:
                stack.extend(reversed(raw.children))
        return sorted(out, key=lambda n: (n.start, n.end))

    def tokens(self) -> Iterator[Node]:
        """The leaves of the tree (keywords, punctuation, names, literal pieces), comments
        left out; a missing token is included (its text is empty)."""
        for node in self.nodes():
            if not node._raw.children and not node.extra:
                yield node

    def names(self, within: Node | None = None) -> Iterator[Node]:
        """The name tokens (identifiers) in the tree or in ``within``."""
        kinds = self.grammar.name_kinds
        return (n for n in (within or self.root).walk() if n.kind in kinds and not n.missing)

    def comments(self) -> list[Node]:
        return [node for node in self.nodes() if node.extra]

    def unclosed(self, opening: str, closing: str) -> int:
        """How many ``opening`` tokens have no real ``closing`` token in their node (an
        unfinished ``{``: its ``}`` is missing or was never written)."""
        count = 0
        for node in self.nodes():
            kids = node._raw.children
            opened = sum(1 for c in kids if c.type == opening and not c.is_missing)
            closed = sum(1 for c in kids if c.type == closing and not c.is_missing)
            count += max(opened - closed, 0)
        return count

    def node_at(self, start: int, end: int) -> Node | None:
        """The outermost node spanning exactly ``source[start:end]``."""
        node = self.root
        while True:
            if node.start == start and node.end == end:
                return node
            inner = [c for c in node.children if c.start <= start and end <= c.end]
            if not inner:
                return None
            node = inner[0]

    # -- the language's reading (see :class:`~codeproof.languages.syntax.grammar.Grammar`)

    def calls(self, names: Collection[str] | None = None, within: Node | None = None) -> list[Call]:
        """The calls (of ``names``, if given) in the tree or in ``within``, outer first."""
        found = [call for node in (within or self.root).walk() if (call := node.as_call())]
        return [call for call in found if names is None or call.name in names]

    def declarations(self) -> list[Declaration]:
        """Functions, classes, methods and variables declared, in source order."""
        return sorted(self.grammar.declarations(self), key=lambda d: d.node.start)

    def tests(self) -> list[Case]:
        """The test cases, in source order."""
        return sorted(self.grammar.tests(self), key=lambda c: c.node.start)

    def assertions(self, within: Node | None = None) -> list[Assertion]:
        """The checks made in the tree or in ``within``, in source order."""
        return sorted(self.grammar.assertions(within or self.root), key=lambda a: a.node.start)

    def exports(self) -> list[Export]:
        """What the module exports (empty when it exports nothing it names)."""
        return list(self.grammar.exports(self))


# -- helpers for the grammars' readers


def items(nodes: Iterable[Node]) -> Value:
    """The values of ``nodes`` as a list (a list literal's elements), if all are literals."""
    values = []
    for node in nodes:
        ok, value = node.value()
        if not ok:
            return NO_VALUE
        values.append(value)
    return True, values


def signed(node: Node, operand: Node | None) -> Value:
    """The value of ``-x`` or ``+x`` (``node``) when its ``operand`` is a number."""
    sign = node.children[0].kind if node.children else ""
    ok, value = operand.value() if operand is not None and sign in ("-", "+") else NO_VALUE
    if ok and isinstance(value, int | float) and not isinstance(value, bool):
        return True, -value if sign == "-" else value
    return NO_VALUE


def constant_reader(
    forbidden: frozenset[str], names: frozenset[str], allowed: Collection[str]
) -> Callable[[Node], bool]:
    """A grammar's ``constant``: no node of a ``forbidden`` kind (functions, assignments,
    ``this``, errors) and no name but the ``allowed`` ones (``undefined``, ``List``...)."""

    def constant(node: Node) -> bool:
        for inner in node.walk():
            if inner.kind in forbidden or inner.missing:
                return False
            if inner.kind in names and inner.text not in allowed:
                return False
        return True

    return constant


Checked = Callable[[Call], tuple[str, list[Node]] | None]
"""``call -> (check, its arguments)`` when the call is a check, else ``None``."""


def checks(checked: Checked) -> Callable[[Node], Iterator[Assertion]]:
    """A grammar's ``assertions`` reader from what makes a call a check."""

    def read(scope: Node) -> Iterator[Assertion]:
        for call in scope.tree.calls(within=scope):
            found = checked(call)
            if found is not None:
                yield Assertion(found[0], call.node, found[1], call.statement)

    return read
