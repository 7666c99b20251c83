"""Python as the syntax facade reads it (the ``tree-sitter-python`` grammar).

For sources :mod:`ast` cannot parse: a reply cut off mid-function, a test file broken in
one place. Where :mod:`ast` works it stays the reader. Tests are ``test*`` functions at
module level or in ``Test*`` classes; checks are ``assert`` statements. A literal's value
is read by :func:`ast.literal_eval` of that one node's text.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator

import tree_sitter_python

from codeproof.languages.syntax import NO_VALUE, Grammar, Node, Tree, Value
from codeproof.languages.syntax.grammar import Assertion, CallParts, Case, Declaration, Export

_LITERALS = frozenset(
    {
        "integer", "float", "string", "concatenated_string", "true", "false", "none", "list",
        "tuple", "dictionary", "set", "unary_operator", "parenthesized_expression",
        "binary_operator",
    }
)  # fmt: skip
_NOT_CONSTANT = frozenset(
    {"lambda", "named_expression", "await", "yield", "list_comprehension",
     "dictionary_comprehension", "set_comprehension", "generator_expression", "ERROR"}
)  # fmt: skip


def _call(node: Node) -> CallParts | None:
    function, arguments = node.field("function"), node.field("arguments")
    if node.kind != "call" or function is None or arguments is None:
        return None
    if arguments.kind != "argument_list":
        return None
    if function.kind == "identifier":
        return CallParts(function.text, arguments)
    attribute = function.field("attribute")
    if function.kind == "attribute" and attribute is not None:
        return CallParts(attribute.text, arguments, function.field("object"))
    return None


def _literal(node: Node) -> Value:
    if node.kind not in _LITERALS or node.has_error:
        return NO_VALUE
    try:
        return True, ast.literal_eval(f"(\n{node.text}\n)")
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return NO_VALUE


def _constant(node: Node) -> bool:
    for inner in node.walk():
        if inner.kind in _NOT_CONSTANT or inner.missing:
            return False
        if inner.kind == "identifier":
            parent = inner.parent
            keyword = parent is not None and parent.kind == "keyword_argument"
            if not (keyword and parent is not None and parent.field("name") == inner):
                return False
    return True


def _docstring(body: Node | None) -> str:
    first = body.named_children[0] if body is not None and body.named_children else None
    if first is None or first.kind != "expression_statement":
        return ""
    ok, value = _literal(first.named_children[0]) if first.named_children else NO_VALUE
    return inspect.cleandoc(value) if ok and isinstance(value, str) else ""


def _outer(node: Node) -> Node:
    """The decorated definition around a definition, if any."""
    parent = node.parent
    return parent if parent is not None and parent.kind == "decorated_definition" else node


def _owner(node: Node) -> Node | None:
    """The class whose body holds ``node``."""
    block = _outer(node).parent
    cls = block.parent if block is not None else None
    return cls if cls is not None and cls.kind == "class_definition" else None


def _top_level(node: Node) -> bool:
    parent = _outer(node).parent
    return parent is not None and parent.kind == "module"


def _declarations(tree: Tree) -> Iterator[Declaration]:
    for node in tree.nodes():
        name = node.field("name")
        if node.kind not in ("function_definition", "class_definition") or name is None:
            continue
        owner = _owner(node)
        owner_name = owner.field("name") if owner is not None else None
        kind = "class" if node.kind == "class_definition" else "function"
        if kind == "function" and owner is not None:
            kind = "constructor" if name.text == "__init__" else "method"
        yield Declaration(
            name=name.text,
            kind=kind,
            node=_outer(node),
            parameters=node.field("parameters") or node.field("superclasses"),
            body=node.field("body"),
            doc=_docstring(node.field("body")),
            owner=owner_name.text if owner_name is not None else "",
            modifiers=tuple(c.kind for c in node.children if c.kind == "async"),
            returns=node.field("return_type"),
            top_level=_top_level(owner or node),
            name_node=name,
        )


def _tests(tree: Tree) -> Iterator[Case]:
    for found in _declarations(tree):
        if found.kind == "class" or not found.name.startswith("test"):
            continue
        if found.owner and not found.owner.startswith("Test"):
            continue
        if found.top_level:
            suite = (found.owner,) if found.owner else ()
            yield Case(found.name, found.node, found.body, suite, found.name_node)


def _assertions(scope: Node) -> Iterator[Assertion]:
    for node in scope.walk():
        if node.kind == "assert_statement":
            yield Assertion("assert", node, node.named_children, node)


def _exports(tree: Tree) -> Iterator[Export]:
    """The names of a module-level ``__all__ = [...]``."""
    for statement in tree.root.named_children:
        assignment = statement.named_children[0] if statement.named_children else None
        left = assignment.field("left") if assignment is not None else None
        right = assignment.field("right") if assignment is not None else None
        if left is None or right is None or left.text != "__all__":
            continue
        ok, names = _literal(right)
        for name in names if ok and isinstance(names, list | tuple) else []:
            yield Export(str(name), str(name), right)


GRAMMAR = Grammar(
    name="python",
    language=tree_sitter_python.language,
    embed=("(\n", "\n)"),
    statement_kinds=frozenset({"expression_statement"}),
    name_kinds=frozenset({"identifier"}),
    call=_call,
    literal=_literal,
    constant=_constant,
    declarations=_declarations,
    tests=_tests,
    assertions=_assertions,
    exports=_exports,
)
