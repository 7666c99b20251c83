"""Mutated Java probe calls: each literal argument changed a little (numbers, strings,
booleans), each list by one element; read with the syntax facade."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from codeproof.languages.mutate import number_variants, seeded_rng, string_variants
from codeproof.languages.syntax import Node, parse_expression

_JAVA_NUMBERS = frozenset(
    {
        "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal",
        "binary_integer_literal", "decimal_floating_point_literal",
    }
)  # fmt: skip
_JAVA_LITERALS = _JAVA_NUMBERS | {"true", "false", "string_literal"}
_JAVA_LISTS = frozenset({("Arrays", "asList"), ("List", "of")})


def _java_number(node: Node, inner: Node, rng: random.Random) -> list[str]:
    """A number's changes, with its suffix (``10L``, ``2.5f``) kept."""
    ok, value = node.value()
    floating = inner.kind == "decimal_floating_point_literal"
    suffixes = "FfDd" if floating else "Ll"
    suffix = inner.text[-1] if inner.text[-1] in suffixes else ""
    if not ok or not isinstance(value, int | float):
        return []
    if isinstance(value, int):
        return [f"{v}{suffix}" for v in number_variants(value, rng)]
    return [f"{v!r}{suffix}" for v in number_variants(value, rng)]


def _java_literal(node: Node, rng: random.Random) -> list[str]:
    """The changed texts of one literal: a number (with its sign), a boolean, a string."""
    inner = node.named_children[0] if node.kind == "unary_expression" else node
    if inner.kind in _JAVA_NUMBERS:
        return _java_number(node, inner, rng)
    if node.kind in ("true", "false"):
        return ["false" if node.kind == "true" else "true"]
    ok, value = node.value()
    if ok and isinstance(value, str):
        return [json.dumps(v, ensure_ascii=False) for v in string_variants(value, rng)]
    return []


def _java_literals(args: Node) -> Iterator[Node]:
    """The literals of an argument list, in order (``-1`` as one)."""
    for node in args.walk():
        parent = node.parent
        if parent is not None and parent.kind == "unary_expression" and parent.value()[0]:
            continue  # read with its sign
        if node.kind in _JAVA_LITERALS or (node.kind == "unary_expression" and node.value()[0]):
            yield node


def _java_lists(call: str, args: Node, rng: random.Random) -> Iterator[str]:
    """Each list (``Arrays.asList``, ``List.of``, ``new T[]{...}``) with one element
    dropped, and with one doubled."""
    for node in args.walk():
        inner = node.as_call()
        if inner is not None and inner.receiver is not None:
            listed = (inner.receiver.text, inner.name) in _JAVA_LISTS
            items, brackets = (inner.args, inner.arguments) if listed else ([], None)
        else:
            brackets = node.field("value") if node.kind == "array_creation_expression" else None
            items = brackets.named_children if brackets is not None else []
        if brackets is None or not items:
            continue
        texts = [item.text for item in items]
        i = rng.randrange(len(texts))
        head, tail = call[: brackets.start + 1], call[brackets.end - 1 :]
        for changed in (texts[:i] + texts[i + 1 :], [*texts[:i], texts[i], *texts[i:]]):
            yield head + ", ".join(changed) + tail


def java_mutants(call: str) -> list[str]:
    """Mutated copies of a Java probe call (``f(args)`` or ``new C(args).f(args)``):
    its own arguments' number, string and boolean literals, and its lists' elements."""
    node = parse_expression("java", call)
    parsed = node.as_call() if node is not None else None
    if parsed is None:
        return []
    rng, out = seeded_rng(call), []
    for literal in _java_literals(parsed.arguments):
        for changed in _java_literal(literal, rng):
            out.append(call[: literal.start] + changed + call[literal.end :])
    return out + list(_java_lists(call, parsed.arguments, rng))
