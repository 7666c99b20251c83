"""Python's code mutants (:mod:`codeproof.languages.code_mutants`): its operators,
literals, statements and the patterns passed to :mod:`re`, read with the syntax facade.

A removed statement becomes ``pass`` (a block is never left empty); a return value
becomes ``None``, or its negation when it is a condition. Docstrings, imports,
annotations, decorators, ``assert`` and ``raise`` statements (their messages) are left
alone; every mutant must still compile (:func:`ast.parse`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

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

RE_FUNCTIONS = frozenset(
    {"compile", "sub", "subn", "match", "search", "fullmatch", "findall", "finditer", "split"}
)
"""Functions of :mod:`re` whose first argument is a pattern."""

_SWAPS = {
    "+": ((ARITHMETIC, "-"),),
    "-": ((ARITHMETIC, "+"),),
    "*": ((ARITHMETIC, "/"),),
    "/": ((ARITHMETIC, "*"),),
    "//": ((ARITHMETIC, "*"),),
    "%": ((ARITHMETIC, "//"),),
    "**": ((ARITHMETIC, "*"),),
    "+=": ((ARITHMETIC, "-="),),
    "-=": ((ARITHMETIC, "+="),),
    "*=": ((ARITHMETIC, "//="),),
    "<": ((BOUNDARY, "<="), (COMPARISON, ">=")),
    "<=": ((BOUNDARY, "<"), (COMPARISON, ">")),
    ">": ((BOUNDARY, ">="), (COMPARISON, "<=")),
    ">=": ((BOUNDARY, ">"), (COMPARISON, "<")),
    "==": ((COMPARISON, "!="),),
    "!=": ((COMPARISON, "=="),),
    "in": ((COMPARISON, "not in"),),
    "not in": ((COMPARISON, "in"),),
    "is": ((COMPARISON, "is not"),),
    "is not": ((COMPARISON, "is"),),
    "and": ((LOGICAL, "or"),),
    "or": ((LOGICAL, "and"),),
}

_SKIPPED = frozenset(
    {
        "import_statement",
        "import_from_statement",
        "future_import_statement",
        "type",
        "decorator",
        "assert_statement",
        "raise_statement",
        "global_statement",
        "nonlocal_statement",
    }
)
_CONDITIONS = frozenset({"comparison_operator", "boolean_operator", "not_operator"})


def _bare_string(node: Node) -> bool:
    """A statement that is only a string (a docstring)."""
    named = node.named_children
    return node.kind == "expression_statement" and len(named) == 1 and named[0].kind == "string"


def _skip(node: Node) -> bool:
    return node.kind in _SKIPPED or _bare_string(node)


def _returns(node: Node) -> list[str]:
    values = node.named_children
    if len(values) != 1:
        return []
    value = values[0]
    out = [] if value.text == "None" else ["return None"]
    if value.kind in _CONDITIONS:
        out.append(f"return not ({value.text})")
    return out


def _regex_sites(tree: Tree) -> list[RegexSite]:
    sites = []
    for call in tree.calls(RE_FUNCTIONS):
        receiver = call.receiver
        if receiver is None or receiver.text != "re" or not call.args:
            continue
        first = call.args[0]
        ok, pattern = first.value() if first.kind == "string" else (False, None)
        if ok and isinstance(pattern, str):
            sites.append(RegexSite(first, pattern, _renderer(first.text)))
    return sites


def _renderer(literal: str) -> Callable[[str], str]:
    """Writes a pattern as ``literal`` is written where it can (a raw string stays raw),
    else as :func:`repr` writes it."""
    start = next((i for i, c in enumerate(literal) if c in "'\""), 0)
    prefix, rest = literal[:start].lower(), literal[start:]
    mark = rest[:3] if rest[:3] in ("'''", '"""') else rest[:1]
    raw = prefix == "r"

    def render(pattern: str) -> str:
        plain = mark not in pattern and not pattern.endswith("\\") and "\n" not in pattern
        if raw and plain:
            return f"{literal[:start]}{mark}{pattern}{mark}"
        return repr(pattern)

    return render


def _compiles(source: str) -> bool:
    try:
        ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


RULES = Rules(
    grammar="python",
    functions=frozenset({"function_definition", "lambda"}),
    swaps=_SWAPS,
    operator_parents=frozenset(
        {"binary_operator", "comparison_operator", "boolean_operator", "augmented_assignment"}
    ),
    negations=frozenset({"not_operator", "unary_operator"}),
    negation_tokens=frozenset({"not", "-"}),
    numbers=frozenset({"integer", "float"}),
    booleans={"True": "False", "False": "True"},
    strings=frozenset({"string"}),
    empty_string="''",
    filled_string="'x'",
    returns=_returns,
    removable=frozenset({"expression_statement", "break_statement", "continue_statement"}),
    removed="pass",
    skip=_skip,
    regex_sites=_regex_sites,
    valid=_compiles,
)


def python_code_mutants(source: str) -> list[CodeMutant]:
    """The mutants of a Python module's source."""
    return mutate(RULES, source)
