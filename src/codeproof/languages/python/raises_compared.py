"""``assert f(x) == pytest.raises(ValueError)`` written as the check it means.

Small models compare a call with ``pytest.raises(...)`` (the 1.5B model's tests of
session 40's own request: ``assert to_fahrenheit(-10) == pytest.raises(ValueError)``).
Such an assert fails whatever the code does: a call that raises errs the test, and a
call that returns compares unequal to the context manager. The check the test states is
``with pytest.raises(ValueError): f(x)``, and it is written so.
"""

from __future__ import annotations

import ast

_COMPARED = (ast.Eq, ast.Is)


def raises_as_blocks(source: str) -> str:
    """``source`` with each ``assert <expr> == pytest.raises(...)`` (either side, ``is``
    too), alone on its lines, written as a ``with pytest.raises(...):`` block around the
    expression; anything else, and a file that does not parse, as it was."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.splitlines(keepends=True)
    edits = [edit for node in ast.walk(tree) if (edit := _edit(node, lines)) is not None]
    for first, last, text in sorted(edits, reverse=True):
        lines[first:last] = [text]
    return "".join(lines)


def _edit(node: ast.AST, lines: list[str]) -> tuple[int, int, str] | None:
    """``(first line, end line, new text)`` replacing an assert comparing with raises."""
    if not isinstance(node, ast.Assert) or node.msg is not None:
        return None
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    if not isinstance(test.ops[0], _COMPARED):
        return None
    left, right = test.left, test.comparators[0]
    raises, expr = (right, left) if _is_raises(right) else (left, right)
    if not _is_raises(raises) or _is_raises(expr):
        return None
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    indent = lines[first][: node.col_offset]
    if indent.strip() or lines[last][node.end_col_offset or 0 :].strip():
        return None  # not alone on its lines
    body = ast.unparse(expr)
    newline = "\n" if lines[last].endswith("\n") else ""
    text = f"{indent}with {ast.unparse(raises)}:\n{indent}    {body}{newline}"
    return first, last + 1, text


def _is_raises(node: ast.expr) -> bool:
    """``pytest.raises(...)`` or a bare ``raises(...)``."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr == "raises" and isinstance(func.value, ast.Name)
    return isinstance(func, ast.Name) and func.id == "raises"
