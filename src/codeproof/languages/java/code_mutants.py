"""Java's code mutants (:mod:`codeproof.languages.code_mutants`): its operators,
literals, statements and the patterns given to ``Pattern``/``String`` regex methods,
read with the syntax facade.

A return value is replaced by the declared type's empty value, as PIT does: ``0`` for a
number, the negation for a ``boolean``, ``""`` for a ``String``, ``null`` for any other
object. A removed statement becomes ``;``. Imports, annotations and ``throw`` statements
(their messages) are left alone. A mutant that does not compile (``-`` on strings) is
dropped later, when it cannot be probed.
"""

from __future__ import annotations

import json

from codeproof.languages.code_mutants import (
    ARITHMETIC,
    BOUNDARY,
    COMPARISON,
    LOGICAL,
    CodeMutant,
    RegexSite,
    Rules,
    mutate,
)
from codeproof.languages.syntax import Node, Tree

_SWAPS = {
    "+": ((ARITHMETIC, "-"),),
    "-": ((ARITHMETIC, "+"),),
    "*": ((ARITHMETIC, "/"),),
    "/": ((ARITHMETIC, "*"),),
    "%": ((ARITHMETIC, "*"),),
    "+=": ((ARITHMETIC, "-="),),
    "-=": ((ARITHMETIC, "+="),),
    "*=": ((ARITHMETIC, "/="),),
    "++": ((ARITHMETIC, "--"),),
    "--": ((ARITHMETIC, "++"),),
    "<": ((BOUNDARY, "<="), (COMPARISON, ">=")),
    "<=": ((BOUNDARY, "<"), (COMPARISON, ">")),
    ">": ((BOUNDARY, ">="), (COMPARISON, "<=")),
    ">=": ((BOUNDARY, ">"), (COMPARISON, "<")),
    "==": ((COMPARISON, "!="),),
    "!=": ((COMPARISON, "=="),),
    "&&": ((LOGICAL, "||"),),
    "||": ((LOGICAL, "&&"),),
}

REGEX_METHODS = frozenset({"compile", "matches", "replaceAll", "replaceFirst", "split"})
"""Methods whose first argument is a pattern (``Pattern.compile``, ``s.replaceAll``...)."""

_SKIPPED = frozenset(
    {
        "import_declaration",
        "package_declaration",
        "annotation",
        "marker_annotation",
        "throw_statement",
        "line_comment",
        "block_comment",
    }
)
_NUMBERS = frozenset({"byte", "short", "int", "long", "char", "float", "double"})
_BOXED = frozenset({"Byte", "Short", "Integer", "Long", "Float", "Double"})
_METHODS = frozenset({"method_declaration", "lambda_expression"})


def _skip(node: Node) -> bool:
    return node.kind in _SKIPPED


def _declared_type(node: Node) -> str | None:
    """The return type of the method ``node`` returns from (``None`` in a lambda)."""
    for outer in node.ancestors():
        if outer.kind in _METHODS:
            kind = outer.field("type") if outer.kind == "method_declaration" else None
            return kind.text if kind is not None else None
    return None


def _returns(node: Node) -> list[str]:
    values = node.named_children
    if len(values) != 1:
        return []
    value, declared = values[0], _declared_type(node)
    if declared is None:
        return []
    if declared == "boolean" or declared == "Boolean":
        return [f"return !({value.text});"]
    if declared in _NUMBERS or declared in _BOXED:
        empty = "0" if declared not in ("Float", "Double") else "0.0"
        return [] if value.text == empty else [f"return {empty};"]
    if declared == "String":
        return [] if value.text == '""' else ['return "";']
    return [] if value.text == "null" else ["return null;"]


def _regex_sites(tree: Tree) -> list[RegexSite]:
    sites = []
    for call in tree.calls(REGEX_METHODS):
        first = call.args[0] if call.args else None
        if first is None or first.kind != "string_literal":
            continue
        ok, pattern = first.value()
        if ok and isinstance(pattern, str):
            sites.append(RegexSite(first, pattern, json.dumps))
    return sites


RULES = Rules(
    grammar="java",
    functions=frozenset({"method_declaration", "constructor_declaration", "lambda_expression"}),
    swaps=_SWAPS,
    operator_parents=frozenset({"binary_expression", "assignment_expression", "update_expression"}),
    negations=frozenset({"unary_expression"}),
    negation_tokens=frozenset({"!", "-"}),
    numbers=frozenset({"decimal_integer_literal", "decimal_floating_point_literal"}),
    booleans={"true": "false", "false": "true"},
    strings=frozenset({"string_literal"}),
    empty_string='""',
    filled_string='"x"',
    returns=_returns,
    removable=frozenset({"expression_statement", "break_statement", "continue_statement"}),
    removed=";",
    skip=_skip,
    regex_sites=_regex_sites,
)


def java_code_mutants(source: str) -> list[CodeMutant]:
    """The mutants of a Java class's source."""
    return mutate(RULES, source)
