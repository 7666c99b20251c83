"""Edit a Python test file: set single checks aside, remove whole test functions.

The consensus and misfit edits decide differently *which* checks are wrong, but edit
the file the same way: a check set aside becomes ``pass  # codeproof: set aside, why``
(so the function body stays valid), a test function to remove goes with its decorators,
and an edit that does not compile leaves the file as it was.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class Verdict:
    """What to do with one test function.

    Attributes:
        notes: One note per decision, without the function name (added by the editor).
        aside: The checks to replace by a note, each with why.
        remove: Remove the whole function instead (``aside`` is then ignored).
    """

    notes: Sequence[str]
    aside: Sequence[tuple[ast.stmt, str]] = field(default_factory=tuple)
    remove: bool = False


Judge = Callable[[FunctionNode], Verdict | None]
"""Judges one test function; ``None`` leaves it untouched."""


def expected_raises(node: ast.With) -> list[ast.expr]:
    """The ``pytest.raises(...)`` items of a ``with`` block (also ``raises(...)`` imported
    from pytest); an empty list when the block expects no exception."""
    found: list[ast.expr] = []
    for item in node.items:
        call = item.context_expr
        if isinstance(call, ast.Call):
            func = call.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name == "raises":
                found.append(call)
    return found


def find_test_functions(tree: ast.AST) -> list[FunctionNode]:
    """The ``test*`` functions and methods in a parsed file."""
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("test")
    ]


def edit_tests(source: str, judge: Judge) -> tuple[str, list[str]]:
    """The test source edited as ``judge`` decides, and one ``function: note`` per decision.

    A source that does not parse, or whose edit does not compile, is returned unchanged
    with no notes.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source, []
    lines = source.splitlines()
    notes: list[str] = []
    drop: set[int] = set()
    for function in find_test_functions(tree):
        verdict = judge(function)
        if verdict is None:
            continue
        notes += [f"{function.name}: {note}" for note in verdict.notes]
        if verdict.remove:
            start = min([function.lineno, *(d.lineno for d in function.decorator_list)])
            drop.update(range(start - 1, function.end_lineno or function.lineno))
            continue
        for node, why in verdict.aside:
            indent = lines[node.lineno - 1][: node.col_offset]
            lines[node.lineno - 1] = f"{indent}pass  # codeproof: set aside, {why}"
            drop.update(range(node.lineno, node.end_lineno or node.lineno))
    edited = _without_lines(lines, drop)
    try:
        compile(edited, "<tests>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return source, []
    return edited, notes


MAX_BLANK = 2
"""Blank lines kept where removed lines were (PEP 8's two between functions)."""


def _without_lines(lines: list[str], drop: set[int]) -> str:
    """``lines`` without the ``drop`` ones; where lines were dropped, the blank lines
    around them are at most :data:`MAX_BLANK`, and none at the start or end of the file
    (removed tests leave no gaps)."""
    out: list[str] = []
    gap: list[str] = []  # blank lines waiting for the next kept line
    cut = False  # lines were dropped within the gap
    for i, line in enumerate(lines):
        if i in drop:
            cut = True
        elif not line.strip():
            gap.append(line)
        else:
            if cut:
                gap = [""] * min(len(gap), MAX_BLANK) if out else []
            out += [*gap, line]
            cut, gap = False, []
    if not cut:
        out += gap
    return "\n".join(out) + "\n"
