"""``const`` bindings that the code assigns again become ``let``.

Small models declare a loop's item or a local with ``const`` and assign it a few lines
later (``const word = words[i]; if (word.length > max) word = word.slice(0, max);``).
Node parses that module and runs it; the ``TypeError: Assignment to constant variable``
comes only when the assigning line runs, so a test that never takes that branch passes
and the shipped code breaks on the first input that does. The author's intent is not in
doubt (the value is assigned on purpose), so the declaration is made ``let``, the one
change that makes the code do what it says.

Names are resolved by scope: an assignment to ``x`` makes a ``const x`` a ``let`` only
when that declaration is the nearest binding of ``x`` around the assignment (a parameter,
a ``let``/``var`` or a function of the same name in between shadows it).
"""

from __future__ import annotations

from collections.abc import Iterator

from codeproof.languages.syntax import Node, parse
from codeproof.languages.syntax.edit import replace

_ASSIGNING = {
    "assignment_expression": "left",
    "augmented_assignment_expression": "left",
    "update_expression": "argument",
}
"""Assignments and updates, with the field that holds what they assign."""
_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
FUNCTIONS = frozenset(
    {
        "function_declaration",
        "function_expression",
        "function",
        "arrow_function",
        "method_definition",
        "generator_function",
        "generator_function_declaration",
    }
)


def let_rebound(source: str) -> str:
    """``source`` with every ``const`` that the code assigns again declared ``let``."""
    tree = parse("javascript", source)
    keywords: dict[int, Node] = {}
    for node in tree.nodes():
        for name in _names_of(assigned(node)):
            keyword = _const_keyword(_binding(node, name))
            if keyword is not None:
                keywords[keyword.start] = keyword
    return replace(source, [(k.start, k.end, "let") for k in keywords.values()])


def assigned(node: Node) -> Node | None:
    """What an assignment or update ``node`` assigns (None for any other node)."""
    return node.field(_ASSIGNING[node.kind]) if node.kind in _ASSIGNING else None


def _pattern_names(node: Node) -> list[str]:
    """The names a binding or assignment pattern binds (``x``, ``{a, b: [c]}``,
    ``[d = 1, ...e]``): not property keys, not default values."""
    kind = node.kind
    if kind in ("identifier", "shorthand_property_identifier_pattern"):
        return [node.text]
    if kind == "pair_pattern":
        value = node.field("value")
        return _pattern_names(value) if value is not None else []
    if kind in ("assignment_pattern", "object_assignment_pattern"):
        left = node.field("left")
        return _pattern_names(left) if left is not None else []
    if kind in ("object_pattern", "array_pattern", "rest_pattern"):
        return [name for child in node.named_children for name in _pattern_names(child)]
    return []


def _binding(node: Node, name: str) -> Node | None:
    """The nearest node around ``node`` that binds ``name``: a declaration, a ``for``
    loop's declaration, a function or class (its name, or a parameter of the function
    around ``node``); ``None`` for a global."""
    for scope in node.ancestors():
        for binder, names in _binders(scope):
            if name in names:
                return binder
    return None


def _binders(scope: Node) -> Iterator[tuple[Node, list[str]]]:
    """What binds names in ``scope`` itself, with the names it binds there."""
    if scope.kind in ("statement_block", "program", "switch_case", "switch_default"):
        for child in scope.named_children:
            if child.kind in _DECLARATIONS:
                yield child, _declared(child)
            elif child.kind in FUNCTIONS or child.kind.startswith("class"):
                yield child, _own_name(child)
    elif scope.kind == "for_statement":
        initializer = scope.field("initializer")
        if initializer is not None and initializer.kind in _DECLARATIONS:
            yield initializer, _declared(initializer)
    elif scope.kind == "for_in_statement" and scope.field("kind") is not None:
        yield scope, _names_of(scope.field("left"))
    elif scope.kind == "catch_clause":
        yield scope, _names_of(scope.field("parameter"))
    elif scope.kind in FUNCTIONS:
        parameters = scope.field("parameters")
        own = [n for p in (parameters.named_children if parameters else []) for n in _names_of(p)]
        yield scope, [*own, *_names_of(scope.field("parameter")), *_own_name(scope)]


def _declared(declaration: Node) -> list[str]:
    """The names a ``const``/``let``/``var`` declaration binds."""
    return [
        name
        for declarator in declaration.named_children
        if declarator.kind == "variable_declarator"
        for name in _names_of(declarator.field("name"))
    ]


def _own_name(node: Node) -> list[str]:
    name = node.field("name")
    return [name.text] if name is not None and name.kind == "identifier" else []


def _names_of(node: Node | None) -> list[str]:
    return _pattern_names(node) if node is not None else []


def _const_keyword(binder: Node | None) -> Node | None:
    """The ``const`` keyword of ``binder``, if it is a ``const`` declaration."""
    if binder is None:
        return None
    declares = binder.kind in ("lexical_declaration", "for_in_statement")
    keyword = binder.field("kind") if declares else None
    return keyword if keyword is not None and keyword.text == "const" else None
