"""What a language gives the syntax facade: its tree-sitter grammar and how to read it.

The facade (:mod:`codeproof.languages.syntax`) knows no language. Each language package
builds one :class:`Grammar` (``languages/<name>/syntax.py``) from its PyPI grammar wheel
and a few readers over that grammar's node kinds: what a call is, what a literal's value
is, which functions are tests, which calls are assertions, what the module declares and
exports. Everything else (parsing, spans, errors, tokens, walking) is shared.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codeproof.languages.syntax.tree import Node, Tree

Value = tuple[bool, object]
"""``(True, value)`` for a literal read as a Python value, ``(False, None)`` otherwise."""

NO_VALUE: Value = (False, None)


@dataclass(frozen=True)
class CallParts:
    """A call as the language writes it: ``receiver.name(arguments)``."""

    name: str
    arguments: Node
    """The argument list, brackets included."""
    receiver: Node | None = None


@dataclass(frozen=True)
class Call:
    """A call found in a tree."""

    name: str
    node: Node
    arguments: Node
    """The argument list, brackets included (``arguments.text`` is ``(1, 'a')``)."""
    receiver: Node | None
    """What the function is looked up on (``assert`` in ``assert.equal(...)``)."""

    @property
    def args(self) -> list[Node]:
        """The argument expressions (comments left out)."""
        return self.arguments.named_children

    @property
    def statement(self) -> Node | None:
        """The statement that is this call alone (with its ``;``), if it is one."""
        return self.node.statement


@dataclass(frozen=True)
class Assertion:
    """A check in a test: ``assert.strictEqual(a, b)``, ``expect(a).toBe(b)``,
    ``assertEquals(b, a)``, ``assert a == b``."""

    name: str
    """The check (``strictEqual``, ``toBe``, ``assertEquals``, ``assert``)."""
    node: Node
    arguments: list[Node]
    """Its arguments in source order (for ``expect(a).toBe(b)``: ``a`` then ``b``)."""
    statement: Node | None
    """The statement that is this check alone, if it is one (what to cut to remove it)."""


@dataclass(frozen=True)
class Case:
    """A test: a ``test('title', ...)`` call, a JUnit ``@Test`` method, a ``test_`` function."""

    name: str
    """The title or the function's name."""
    node: Node
    """The whole test (annotations and decorators included)."""
    body: Node | None
    """The block of its code."""
    suite: tuple[str, ...] = ()
    """Enclosing suites, outermost first (``describe`` titles, class names)."""
    name_node: Node | None = None
    """Where the name is written (the identifier or the title's literal)."""


@dataclass(frozen=True)
class Declaration:
    """A function, method, class or variable the source declares."""

    name: str
    kind: str
    """``function``, ``method``, ``constructor``, ``class`` (any type: interface, enum,
    record too), ``variable``, ``import`` (the name it binds, or for Java the path it
    imports: ``java.util.List``, ``java.util.*``) or ``package``."""
    node: Node
    parameters: Node | None = None
    """The parameter list, brackets included when the source writes them."""
    body: Node | None = None
    doc: str = ""
    """The doc comment or docstring, without its comment markers."""
    owner: str = ""
    """The enclosing class, for a method or constructor."""
    modifiers: tuple[str, ...] = ()
    """Keywords before it (``public``, ``static``, ``async``, ``export``...), in order."""
    returns: Node | None = None
    """The declared return (or variable) type."""
    type_parameters: Node | None = None
    top_level: bool = False
    """Declared at module level (in a class at module level, for a member)."""
    name_node: Node | None = None


@dataclass(frozen=True)
class Export:
    """A name a module exports, and the local name behind it (when there is one)."""

    name: str
    local: str | None = None
    node: Node | None = None


def _nothing(tree: Tree) -> Iterable[Export]:
    return ()


def _no_nodes(tree: Tree) -> Iterable[Node]:
    return ()


@dataclass(frozen=True)
class Grammar:
    """One language's grammar and its readers (built by the language's package)."""

    name: str
    language: Callable[[], object]
    """The grammar wheel's ``language()`` (a tree-sitter language pointer)."""
    embed: tuple[str, str]
    """Text around a lone expression that makes it a whole source (``(`` and ``\\n)``)."""
    statement_kinds: frozenset[str]
    """Kinds of a statement made of one expression (``expression_statement``)."""
    name_kinds: frozenset[str]
    """Kinds of the tokens that are names (identifiers, type names, property names)."""
    call: Callable[[Node], CallParts | None]
    """The parts of a node if it is a call."""
    literal: Callable[[Node], Value]
    """The value of a literal expression (numbers, strings, booleans, null, lists, maps)."""
    constant: Callable[[Node], bool]
    """Whether an expression refers to no variable (so it can be evaluated anywhere)."""
    declarations: Callable[[Tree], Iterable[Declaration]]
    tests: Callable[[Tree], Iterable[Case]]
    assertions: Callable[[Node], Iterable[Assertion]]
    """The checks made in a node (a test's body, a whole file)."""
    exports: Callable[[Tree], Iterable[Export]] = field(default=_nothing)
    specifiers: Callable[[Tree], Iterable[Node]] = field(default=_no_nodes)
    """The string literals that name a module (``require('node:test')``, ``import ...
    from './cart'``): what a file loads, never a value it computes with."""
