"""JavaScript's code mutants (:mod:`codeproof.languages.code_mutants`): its operators,
literals, statements, regular expression literals and ``RegExp`` patterns, read with the
syntax facade.

A removed statement becomes the empty statement ``;``; a return value becomes ``null``,
or its negation when it is a condition. Imports, ``require`` calls, ``throw`` statements
(their messages) and the module's exports are left alone.
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
    "**": ((ARITHMETIC, "*"),),
    "+=": ((ARITHMETIC, "-="),),
    "-=": ((ARITHMETIC, "+="),),
    "*=": ((ARITHMETIC, "/="),),
    "++": ((ARITHMETIC, "--"),),
    "--": ((ARITHMETIC, "++"),),
    "<": ((BOUNDARY, "<="), (COMPARISON, ">=")),
    "<=": ((BOUNDARY, "<"), (COMPARISON, ">")),
    ">": ((BOUNDARY, ">="), (COMPARISON, "<=")),
    ">=": ((BOUNDARY, ">"), (COMPARISON, "<")),
    "===": ((COMPARISON, "!=="),),
    "!==": ((COMPARISON, "==="),),
    "==": ((COMPARISON, "!="),),
    "!=": ((COMPARISON, "=="),),
    "&&": ((LOGICAL, "||"),),
    "||": ((LOGICAL, "&&"),),
    "??": ((LOGICAL, "||"),),
}

FUNCTIONS = frozenset(
    {
        "function_declaration",
        "function_expression",
        "function",
        "arrow_function",
        "method_definition",
        "generator_function_declaration",
    }
)
_SKIPPED = frozenset({"import_statement", "export_clause", "throw_statement", "comment"})
_CONDITIONS = frozenset({"binary_expression", "unary_expression"})
_TESTS = frozenset({"<", "<=", ">", ">=", "===", "!==", "==", "!=", "&&", "||", "!"})


def _requires(node: Node) -> bool:
    call = node.as_call()
    return call is not None and call.name == "require" and call.receiver is None


def _skip(node: Node) -> bool:
    return node.kind in _SKIPPED or _requires(node)


def _condition(value: Node) -> bool:
    """A value that is a test: a comparison, ``&&``/``||`` or ``!x``, or a boolean."""
    if value.kind in ("true", "false"):
        return True
    tokens = [c.text for c in value.children if not c.named]
    return value.kind in _CONDITIONS and bool(tokens) and tokens[0] in _TESTS


def _returns(node: Node) -> list[str]:
    values = node.named_children
    if len(values) != 1:
        return []
    value = values[0]
    if _condition(value):
        return [f"return !({value.text});"]
    return [] if value.text in ("null", "undefined") else ["return null;"]


def _string_pattern(node: Node) -> RegexSite | None:
    ok, pattern = node.value() if node.kind == "string" else (False, None)
    if not ok or not isinstance(pattern, str):
        return None
    return RegexSite(node, pattern, lambda p: json.dumps(p, ensure_ascii=False))


def _regex_sites(tree: Tree) -> list[RegexSite]:
    sites = []
    for node in tree.nodes():
        pattern = node.field("pattern") if node.kind == "regex" else None
        if pattern is not None:
            sites.append(RegexSite(pattern, pattern.text, lambda p: p))
        elif node.kind == "new_expression" or (
            (call := node.as_call()) is not None and call.name == "RegExp"
        ):
            constructor = node.field("constructor")
            arguments = node.field("arguments")
            named = node.kind != "new_expression" or (
                constructor is not None and constructor.text == "RegExp"
            )
            args = arguments.named_children if arguments is not None else []
            site = _string_pattern(args[0]) if named and args else None
            if site is not None:
                sites.append(site)
    return sites


RULES = Rules(
    grammar="javascript",
    functions=FUNCTIONS,
    swaps=_SWAPS,
    operator_parents=frozenset(
        {"binary_expression", "augmented_assignment_expression", "update_expression"}
    ),
    negations=frozenset({"unary_expression"}),
    negation_tokens=frozenset({"!", "-"}),
    numbers=frozenset({"number"}),
    booleans={"true": "false", "false": "true"},
    strings=frozenset({"string"}),
    empty_string="''",
    filled_string="'x'",
    returns=_returns,
    removable=frozenset({"expression_statement", "break_statement", "continue_statement"}),
    removed=";",
    skip=_skip,
    regex_sites=_regex_sites,
)


def javascript_code_mutants(source: str) -> list[CodeMutant]:
    """The mutants of a JavaScript module's source."""
    return mutate(RULES, source)
