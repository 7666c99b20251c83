"""JavaScript as the syntax facade reads it (the ``tree-sitter-javascript`` grammar).

Tests are ``node:test``/jest-style ``test(...)``/``it(...)`` calls (``.only``/``.skip``
variants too) titled with a literal, inside ``describe(...)``/``suite(...)`` blocks;
checks are ``assert(...)``, ``assert.<kind>(...)`` and ``expect(...).<matcher>(...)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import tree_sitter_javascript

from codeproof.languages.syntax import NO_VALUE, Grammar, Node, Tree, Value
from codeproof.languages.syntax.cfamily import COMMON_ESCAPES, preceding_comment, string_value
from codeproof.languages.syntax.grammar import Call, CallParts, Case, Declaration, Export
from codeproof.languages.syntax.tree import checks, constant_reader, items, signed

_ESCAPES = {**COMMON_ESCAPES, "v": "\v", "0": "\0"}
_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
_NOT_CONSTANT = _FUNCTIONS | {
    "class", "this", "super", "new_expression", "assignment_expression",
    "augmented_assignment_expression", "update_expression", "await_expression",
    "yield_expression", "shorthand_property_identifier", "ERROR",
}  # fmt: skip
_CONSTANT_NAMES = {"undefined": NO_VALUE, "NaN": (True, math.nan), "Infinity": (True, math.inf)}
_NAMES = frozenset(
    {
        "identifier", "property_identifier", "shorthand_property_identifier",
        "shorthand_property_identifier_pattern", "private_property_identifier",
        "statement_identifier",
    }
)  # fmt: skip
TEST_FUNCTIONS = frozenset({"test", "it"})
SUITE_FUNCTIONS = frozenset({"describe", "suite"})
_VARIANTS = frozenset({"only", "skip", "todo"})


def _call(node: Node) -> CallParts | None:
    if node.kind != "call_expression":
        return None
    function, arguments = node.field("function"), node.field("arguments")
    if function is None or arguments is None or arguments.kind != "arguments":
        return None
    if function.kind == "identifier":
        return CallParts(function.text, arguments)
    if function.kind == "member_expression":
        prop = function.field("property")
        if prop is not None:
            return CallParts(prop.text, arguments, function.field("object"))
    return None


def _number(text: str) -> Value:
    raw = text.replace("_", "").lower()
    try:
        if raw.endswith("n"):
            return True, int(raw[:-1], 0)
        if raw[:2] in ("0x", "0o", "0b"):
            return True, int(raw, 0)
        if len(raw) > 1 and raw[0] == "0" and raw.isdigit():
            return True, int(raw, 8) if set(raw) <= set("01234567") else int(raw)
        return (True, float(raw)) if any(c in raw for c in ".e") else (True, int(raw))
    except ValueError:
        return NO_VALUE


def _string(node: Node) -> Value:
    parts = [c for c in node.children if c.kind not in ("'", '"', "`")]
    value = string_value(parts, _ESCAPES, octal=False, escape="escape_sequence")
    return NO_VALUE if value is None else (True, value)


def _array(node: Node) -> Value:
    previous = "["
    for child in node.children:
        if child.kind == "," and previous in ("[", ","):
            return NO_VALUE  # a hole: [1, , 2]
        previous = child.kind if not child.extra else previous
    return items(node.named_children)


def _key(node: Node) -> str | None:
    if node.kind in ("property_identifier", "identifier"):
        return node.text
    if node.kind == "string":
        ok, value = _string(node)
        return str(value) if ok else None
    if node.kind == "number":
        ok, value = _number(node.text)
        if ok and isinstance(value, float) and value.is_integer():
            value = int(value)
        return str(value) if ok else None
    return None


def _object(node: Node) -> Value:
    out: dict[str, object] = {}
    for pair in node.named_children:
        key, value = pair.field("key"), pair.field("value")
        name = _key(key) if pair.kind == "pair" and key is not None else None
        ok, item = _literal(value) if value is not None else NO_VALUE
        if name is None or not ok:
            return NO_VALUE
        out[name] = item
    return True, out


def _literal(node: Node) -> Value:
    kind = node.kind
    if kind == "number":
        return _number(node.text)
    if kind == "string" or (
        kind == "template_string" and all(c.kind != "template_substitution" for c in node.children)
    ):
        return _string(node)
    if kind in ("true", "false", "null"):
        return True, {"true": True, "false": False, "null": None}[kind]
    if kind == "identifier":
        return _CONSTANT_NAMES.get(node.text, NO_VALUE)
    if kind == "parenthesized_expression" and len(node.named_children) == 1:
        return _literal(node.named_children[0])
    if kind == "unary_expression":
        return signed(node, node.field("argument"))
    if kind == "array":
        return _array(node)
    if kind == "object":
        return _object(node)
    return NO_VALUE


def _title(call: CallParts, wanted: frozenset[str]) -> tuple[str, Node] | None:
    """The literal title of ``test('title', ...)`` (or ``test.only(...)``) calls."""
    receiver = call.receiver
    named = call.name in wanted and receiver is None
    variant = call.name in _VARIANTS and receiver is not None and receiver.text in wanted
    args = call.arguments.named_children
    if not (named or variant) or not args:
        return None
    ok, title = _literal(args[0])
    return (title, args[0]) if ok and isinstance(title, str) else None


def _tests(tree: Tree) -> Iterator[Case]:
    for node in tree.nodes():
        parts = _call(node)
        titled = _title(parts, TEST_FUNCTIONS) if parts is not None else None
        if parts is None or titled is None:
            continue
        functions = [a for a in parts.arguments.named_children if a.kind in _FUNCTIONS]
        body = functions[-1].field("body") if functions else None
        suite: list[str] = []
        for outer in node.ancestors():
            outer_parts = _call(outer)
            found = _title(outer_parts, SUITE_FUNCTIONS | TEST_FUNCTIONS) if outer_parts else None
            if found is not None:
                suite.insert(0, found[0])
        yield Case(titled[0], node, body, tuple(suite), titled[1])


def _is_named(node: Node | None, name: str) -> bool:
    """``name``, or a member ``something.name``."""
    if node is not None and node.kind == "member_expression":
        node = node.field("property")
    return node is not None and node.text == name and node.kind.endswith("identifier")


def _checked(call: Call) -> tuple[str, list[Node]] | None:
    """``(check, arguments)`` of ``assert.x(...)``, ``assert(...)``, ``expect(a).x(b)``."""
    args = call.arguments.named_children
    receiver = call.receiver
    if receiver is None:
        return ("assert", args) if call.name == "assert" else None
    if _is_named(receiver, "assert"):  # assert.equal(...), t.assert.equal(...)
        return call.name, args
    while receiver is not None and receiver.kind == "member_expression":
        receiver = receiver.field("object")  # expect(a).not.toBe(b)
    inner = _call(receiver) if receiver is not None else None
    if inner is not None and inner.name == "expect" and inner.receiver is None:
        return call.name, [*inner.arguments.named_children, *args]
    return None


def _statement(node: Node) -> Node:
    """The statement a declaration is (``const``/``let``/``var`` around a declarator, and
    the ``export`` statement around that, if any)."""
    if node.kind == "variable_declarator" and node.parent is not None:
        node = node.parent
    parent = node.parent
    return parent if parent is not None and parent.kind == "export_statement" else node


def _exported(node: Node) -> tuple[str, ...]:
    return ("export",) if _statement(node).kind == "export_statement" else ()


def _top_level(node: Node) -> bool:
    parent = _statement(node).parent
    return parent is not None and parent.kind == "program"


def _words(node: Node, *kinds: str) -> tuple[str, ...]:
    return tuple(c.kind for c in node.children if c.kind in kinds)


def _function(
    function: Node,
    name: Node,
    kind: str,
    at: Node,
    modifiers: tuple[str, ...],
    owner: Node | None = None,
) -> Declaration:
    """A declaration of ``function`` (its parameters and body), written at ``at`` (a
    method: in the class ``owner``)."""
    statement = _statement(at)
    owner_name = owner.field("name") if owner is not None else None
    return Declaration(
        name=name.text,
        kind=kind,
        node=at,
        parameters=function.field("parameters") or function.field("parameter"),
        body=function.field("body"),
        doc=preceding_comment(statement),
        owner=owner_name.text if owner_name is not None else "",
        modifiers=_exported(at) + modifiers,
        top_level=_top_level(owner or at),
        name_node=name,
    )


def _declarations(tree: Tree) -> Iterator[Declaration]:
    for node in tree.nodes():
        kind, name = node.kind, node.field("name")
        if name is None:
            continue
        if kind in ("function_declaration", "generator_function_declaration"):
            yield _function(node, name, "function", node, _words(node, "async"))
        elif kind == "class_declaration":
            yield Declaration(name.text, "class", node, body=node.field("body"),
                              doc=preceding_comment(_statement(node)), modifiers=_exported(node),
                              top_level=_top_level(node), name_node=name)  # fmt: skip
        elif kind == "method_definition" and (owner := _owner(node)) is not None:
            kind = "constructor" if name.text == "constructor" else "method"
            yield _function(node, name, kind, node, _words(node, "static", "async", "get", "set"),
                            owner)  # fmt: skip
        elif kind == "variable_declarator" and name.kind == "identifier":
            yield _variable(node, name)
        elif kind == "variable_declarator":  # const { a, b: [c] } = ...
            for bound in _bound(name):
                yield _variable(node, bound)
    for node in tree.nodes():
        if node.kind == "import_clause":
            for bound in _bound(node):
                yield Declaration(bound.text, "import", node.parent or node, name_node=bound,
                                  top_level=True)  # fmt: skip


def _bound(pattern: Node) -> Iterator[Node]:
    """The names a destructuring pattern (or an import clause) binds; a default value's
    names are read, not bound."""
    if pattern.kind in ("identifier", "shorthand_property_identifier_pattern"):
        yield pattern
    elif pattern.kind == "import_specifier":
        name = pattern.field("alias") or pattern.field("name")
        yield from [name] if name is not None else []
    else:
        for child in pattern.named_children:
            if pattern.field_name(child) not in ("right", "key"):
                yield from _bound(child)


def _owner(method: Node) -> Node | None:
    """The class a method is declared in."""
    body = method.parent
    cls = body.parent if body is not None else None
    named = cls is not None and cls.kind in ("class_declaration", "class") and cls.field("name")
    return cls if named else None


def _variable(node: Node, name: Node) -> Declaration:
    """A variable (a function, when a function is its value); the whole ``const ...;``
    statement is the declaration's node when it declares nothing else."""
    statement = node.parent or node  # const/let/var ...
    keyword = _words(statement, "const", "let", "var")
    value = node.field("value")
    whole = statement if statement.named_children == [node] else node
    if value is not None and value.kind in _FUNCTIONS:
        return _function(value, name, "function", whole, (*keyword, *_words(value, "async")))
    return Declaration(name.text, "variable", whole, doc=preceding_comment(_statement(node)),
                       modifiers=_exported(node) + keyword, top_level=_top_level(node),
                       name_node=name)  # fmt: skip


def _is_module_exports(node: Node) -> bool:
    owner = node.field("object")
    return (
        node.kind == "member_expression"
        and owner is not None
        and owner.kind == "identifier"
        and owner.text == "module"
        and _is_named(node, "exports")
    )


def _export_names(target: Node, value: Node) -> Iterator[Export]:
    """The names of ``module.exports = value`` or ``exports.name = value``."""
    owner, prop = target.field("object"), target.field("property")
    local = value.text if value.kind == "identifier" else None
    if _is_module_exports(target):
        if value.kind == "object":
            yield from _object_exports(value)
            return
        name = value if value.kind == "identifier" else value.field("name")
        yield Export(name.text, name.text, value) if name else Export("default", None, value)
    elif (
        owner is not None
        and prop is not None
        and ((owner.kind == "identifier" and owner.text == "exports") or _is_module_exports(owner))
    ):
        yield Export(prop.text, local, target)


def _object_exports(value: Node) -> Iterator[Export]:
    for item in value.named_children:
        key = item.field("key") or item.field("name")
        if item.kind == "shorthand_property_identifier":
            yield Export(item.text, item.text, item)
        elif key is not None:
            local = item.field("value")
            named = local is not None and local.kind == "identifier"
            yield Export(key.text, local.text if named and local is not None else None, item)


def _exports(tree: Tree) -> Iterator[Export]:
    for node in tree.nodes():
        if node.kind == "assignment_expression":
            target, value = node.field("left"), node.field("right")
            if target is not None and value is not None and target.kind == "member_expression":
                yield from _export_names(target, value)
        elif node.kind == "export_statement":
            yield from _export_statement(node)


def _export_statement(node: Node) -> Iterator[Export]:
    declaration = node.field("declaration")
    if declaration is not None:
        names = [declaration.field("name")] + [
            d.field("name") for d in declaration.named_children if d.kind == "variable_declarator"
        ]
        yield from (Export(n.text, n.text, node) for n in names if n is not None)
        return
    for clause in node.named_children:
        for spec in clause.named_children if clause.kind == "export_clause" else []:
            local, alias = spec.field("name"), spec.field("alias")
            if local is not None:
                yield Export((alias or local).text, local.text, spec)
    value = node.field("value")
    if value is not None:
        yield Export("default", value.text if value.kind == "identifier" else None, node)


def _specifiers(tree: Tree) -> Iterator[Node]:
    for node in tree.nodes():
        if node.kind in ("import_statement", "export_statement"):
            source = node.field("source")
            if source is not None:
                yield source
        elif node.kind == "call_expression":
            function, arguments = node.field("function"), node.field("arguments")
            if function is not None and function.text in ("require", "import") and arguments:
                yield from (a for a in arguments.named_children if a.kind == "string")


GRAMMAR = Grammar(
    name="javascript",
    language=tree_sitter_javascript.language,
    embed=("(", "\n)"),
    statement_kinds=frozenset({"expression_statement"}),
    name_kinds=_NAMES,
    call=_call,
    literal=_literal,
    constant=constant_reader(_NOT_CONSTANT, frozenset({"identifier"}), _CONSTANT_NAMES),
    declarations=_declarations,
    tests=_tests,
    assertions=checks(_checked),
    exports=_exports,
    specifiers=_specifiers,
)
