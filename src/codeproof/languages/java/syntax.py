"""Java as the syntax facade reads it (the ``tree-sitter-java`` grammar).

Tests are JUnit 5 methods annotated ``@Test``, ``@ParameterizedTest`` or
``@RepeatedTest``; checks are the ``assert...``/``fail`` calls (bare, statically
imported, or on ``Assertions``/``Assert``) and AssertJ-style ``assertThat(a).isX(b)``.
Literal values include the standard ways of writing a list (``Arrays.asList``,
``List.of``, ``new int[]{...}``, ``new ArrayList<>(...)``); maps and sets are left
unread (their printed order is the implementation's).
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter_java

from codeproof.languages.syntax import NO_VALUE, Grammar, Node, Tree, Value
from codeproof.languages.syntax.cfamily import (
    COMMON_ESCAPES,
    decode_escape,
    preceding_comment,
    string_value,
)
from codeproof.languages.syntax.grammar import Call, CallParts, Case, Declaration
from codeproof.languages.syntax.tree import checks, constant_reader, items, signed

_ESCAPES = {**COMMON_ESCAPES, "s": " "}
TEST_ANNOTATIONS = frozenset({"Test", "ParameterizedTest", "RepeatedTest"})
CONSTANT_WORDS = frozenset(
    {
        "Arrays", "asList", "List", "of", "ArrayList", "LinkedList", "Set", "HashSet",
        "LinkedHashSet", "Map", "HashMap", "entry", "Optional", "empty", "ofNullable",
        "Collections", "emptyList", "emptyMap", "emptySet", "singletonList", "String",
        "Integer", "Long", "Double", "Float", "Character", "Boolean", "Byte", "Short",
        "Object", "MAX_VALUE", "MIN_VALUE",
    }
)  # fmt: skip
"""Standard classes and members a constant expression may name (``List.of(1)``)."""
_NOT_CONSTANT = frozenset(
    {
        "lambda_expression", "method_reference", "assignment_expression", "update_expression",
        "this", "super", "switch_expression", "ERROR",
    }
)  # fmt: skip
_INTEGERS = {
    "decimal_integer_literal": 10, "hex_integer_literal": 16,
    "octal_integer_literal": 8, "binary_integer_literal": 2,
}  # fmt: skip
_LISTS = {("Arrays", "asList"), ("List", "of"), ("Collections", "emptyList"),
          ("Collections", "singletonList")}  # fmt: skip
_LIST_CLASSES = frozenset({"ArrayList", "LinkedList"})
_NAMES = frozenset({"identifier", "type_identifier"})
_ASSERTION_OWNERS = frozenset({"Assertions", "Assert"})
_CLASS_KINDS = frozenset(
    {"class_declaration", "interface_declaration", "enum_declaration", "record_declaration"}
)


def _call(node: Node) -> CallParts | None:
    name, arguments = node.field("name"), node.field("arguments")
    if node.kind != "method_invocation" or name is None or arguments is None:
        return None
    return CallParts(name.text, arguments, node.field("object"))


def _integer(node: Node) -> Value:
    text = node.text.replace("_", "").rstrip("lL")
    base = _INTEGERS[node.kind]
    digits = text[2:] if base in (16, 2) else text
    try:
        return True, int(digits, base)
    except ValueError:
        return NO_VALUE


def _float(node: Node) -> Value:
    text = node.text.replace("_", "")
    try:
        if node.kind == "hex_floating_point_literal":
            return True, float.fromhex(text.rstrip("fFdD"))
        return True, float(text.rstrip("fFdD"))
    except ValueError:
        return NO_VALUE


def _text_block(node: Node) -> Value:
    """A ``\"\"\"`` text block: incidental indentation and trailing blanks removed, then
    the escapes decoded (each escape is held by a placeholder meanwhile)."""
    escapes = [c for c in node.children if c.kind == "escape_sequence"]
    decoded = [decode_escape(e.text, _ESCAPES, octal=True) for e in escapes]
    if any(d is None for d in decoded):
        return NO_VALUE
    raw, at = [], node.start
    for i, escape in enumerate(escapes):
        raw += [node.tree.source[at : escape.start], f"\ue000{i}\ue001"]
        at = escape.end
    raw.append(node.tree.source[at : node.end])
    lines = "".join(raw)[3:-3].split("\n")[1:]  # nothing follows the opening delimiter
    if not lines:
        return NO_VALUE
    indents = [len(x) - len(x.lstrip()) for x in lines[:-1] if x.strip()]
    cut = min([*indents, len(lines[-1]) - len(lines[-1].lstrip())])
    text = "\n".join(line[cut:].rstrip(" \t") for line in lines)
    for i, value in enumerate(decoded):
        text = text.replace(f"\ue000{i}\ue001", value or "")
    return True, text


def _string(node: Node) -> Value:
    if node.text.startswith('"""'):
        return _text_block(node)
    parts = [c for c in node.children if c.kind != '"']
    value = string_value(parts, _ESCAPES, octal=True, escape="escape_sequence")
    return NO_VALUE if value is None else (True, value)


def _char(node: Node) -> Value:
    body = node.text[1:-1]
    value = decode_escape(body, _ESCAPES, octal=True) if body.startswith("\\") else body
    return (True, value) if value is not None and len(value) == 1 else NO_VALUE


def _list_call(node: Node) -> Value:
    """``Arrays.asList(1, 2)``, ``List.of()``, ``Collections.singletonList(x)``."""
    owner, name, args = node.field("object"), node.field("name"), node.field("arguments")
    if owner is None or name is None or args is None or (owner.text, name.text) not in _LISTS:
        return NO_VALUE
    return items(args.named_children)


def _new_list(node: Node) -> Value:
    """``new ArrayList<>()``, ``new ArrayList<>(List.of(1))`` (a copy of a list)."""
    kind, args = node.field("type"), node.field("arguments")
    if kind is not None and kind.kind == "generic_type":
        kind = kind.named_children[0] if kind.named_children else None
    if kind is None or kind.text not in _LIST_CLASSES or args is None or node.field("body"):
        return NO_VALUE
    items = args.named_children
    if not items:
        return True, []
    ok, value = _literal(items[0]) if len(items) == 1 else NO_VALUE
    return (True, value) if ok and isinstance(value, list) else NO_VALUE


def _literal(node: Node) -> Value:
    kind = node.kind
    if kind in _INTEGERS:
        return _integer(node)
    if kind in ("decimal_floating_point_literal", "hex_floating_point_literal"):
        return _float(node)
    if kind == "string_literal":
        return _string(node)
    if kind == "character_literal":
        return _char(node)
    if kind in ("true", "false", "null_literal"):
        return True, {"true": True, "false": False, "null_literal": None}[kind]
    if kind == "unary_expression":
        return signed(node, node.field("operand"))
    if kind == "parenthesized_expression" and len(node.named_children) == 1:
        return _literal(node.named_children[0])
    if kind == "array_initializer":
        return items(node.named_children)
    if kind == "array_creation_expression":
        value = node.field("value")
        return _literal(value) if value is not None else NO_VALUE
    if kind == "method_invocation":
        return _list_call(node)
    if kind == "object_creation_expression":
        return _new_list(node)
    return NO_VALUE


def _annotations(node: Node) -> list[str]:
    """The simple names of a declaration's annotations (``Test`` for ``@org...Test``)."""
    names = []
    for modifiers in node.children:
        for item in modifiers.children if modifiers.kind == "modifiers" else []:
            name = item.field("name")
            if item.kind in ("marker_annotation", "annotation") and name is not None:
                names.append(name.text.rsplit(".", 1)[-1])
    return names


def _classes(node: Node) -> list[str]:
    """The names of the classes around ``node``, outermost first."""
    names: list[str] = []
    for outer in node.ancestors():
        name = outer.field("name")
        if outer.kind in _CLASS_KINDS and name is not None:
            names.insert(0, name.text)
    return names


def _tests(tree: Tree) -> Iterator[Case]:
    for node in tree.nodes():
        name = node.field("name")
        tested = node.kind == "method_declaration" and TEST_ANNOTATIONS & set(_annotations(node))
        if tested and name is not None:
            yield Case(name.text, node, node.field("body"), tuple(_classes(node)), name)


def _checked(call: Call) -> tuple[str, list[Node]] | None:
    args = call.arguments.named_children
    receiver = call.receiver
    is_check = call.name == "fail" or (call.name.startswith("assert") and call.name[6:7].isupper())
    if is_check and call.name != "assertThat":
        if receiver is None or receiver.text.rsplit(".", 1)[-1] in _ASSERTION_OWNERS:
            return call.name, args
        return None
    while receiver is not None and (inner := _call(receiver)) is not None:
        if inner.name == "assertThat":  # assertThat(a).isEqualTo(b)
            return call.name, [*inner.arguments.named_children, *args]
        receiver = inner.receiver
    return None


_DECLARED = {
    **dict.fromkeys(_CLASS_KINDS, "class"),
    "method_declaration": "method",
    "constructor_declaration": "constructor",
}


def _modifiers(node: Node) -> tuple[str, ...]:
    words: list[str] = []
    for modifiers in node.children:
        if modifiers.kind == "modifiers":
            words += [c.text for c in modifiers.children if "annotation" not in c.kind]
    return tuple(words)


def _imports(tree: Tree) -> Iterator[Declaration]:
    """``import [static] a.b.C;`` (named ``a.b.C``, ``a.b.*``) and ``package a.b;``."""
    for node in tree.root.named_children:
        if node.kind not in ("import_declaration", "package_declaration"):
            continue
        path = "".join(
            c.text for c in node.children if c.kind in ("scoped_identifier", "identifier", ".")
        ) + ("*" if any(c.kind == "asterisk" for c in node.children) else "")
        kind = "import" if node.kind == "import_declaration" else "package"
        words = tuple(c.kind for c in node.children if c.kind == "static")
        yield Declaration(path, kind, node, modifiers=words, top_level=True)


def _declarations(tree: Tree) -> Iterator[Declaration]:
    yield from _imports(tree)
    for node in tree.nodes():
        kind, name = _DECLARED.get(node.kind), node.field("name")
        if kind is None or name is None:
            continue
        classes = _classes(node)
        yield Declaration(
            name=name.text,
            kind=kind,
            node=node,
            parameters=node.field("parameters"),
            body=node.field("body"),
            doc=preceding_comment(node),
            owner=classes[-1] if classes and kind != "class" else "",
            modifiers=_modifiers(node),
            returns=node.field("type"),
            type_parameters=node.field("type_parameters"),
            top_level=len(classes) <= (0 if kind == "class" else 1),
            name_node=name,
        )


GRAMMAR = Grammar(
    name="java",
    language=tree_sitter_java.language,
    embed=("class Embedded_ {\n    Object value_ = ", "\n    ;\n}\n"),
    statement_kinds=frozenset({"expression_statement"}),
    name_kinds=_NAMES,
    call=_call,
    literal=_literal,
    constant=constant_reader(
        _NOT_CONSTANT, frozenset({"identifier", "type_identifier"}), CONSTANT_WORDS
    ),
    declarations=_declarations,
    tests=_tests,
    assertions=checks(_checked),
)
