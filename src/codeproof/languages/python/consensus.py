"""Python test files edited to set aside the assertions that contradict the outputs the
drafts agree on (:mod:`codeproof.choosing.consensus`)."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from codeproof.core.proof import DisputedCheck
from codeproof.languages.checks import disputed
from codeproof.languages.python.pytest_edit import (
    FunctionNode,
    Verdict,
    edit_tests,
    expected_raises,
)
from codeproof.languages.values import raised_note, raised_output


def _value(text: str) -> tuple[bool, object]:
    try:
        return True, ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _disputed(node: ast.Assert, agreed: Mapping[str, str]) -> DisputedCheck | None:
    """``call == expected (got)`` when the assertion contradicts the consensus."""
    test = node.test
    if not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
    ):
        return None
    for call, other in ((test.left, test.comparators[0]), (test.comparators[0], test.left)):
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name | ast.Attribute):
            continue
        name = call.func.id if isinstance(call.func, ast.Name) else call.func.attr
        key = ast.unparse(ast.Call(func=ast.Name(id=name), args=call.args, keywords=call.keywords))
        text = ast.unparse(other)
        ok_expected, expected = _value(text)
        raised = raised_output(agreed.get(key, ""))
        if key in agreed and ok_expected and raised is not None:
            return disputed(
                key, repr(expected), agreed[key], raised_note(f"{key} == {text}", raised)
            )
        ok_got, got = _value(agreed.get(key, ""))
        if key in agreed and ok_expected and ok_got and expected != got:
            note = f"{key} == {text} (the agreeing candidates return {agreed[key]})"
            return disputed(key, repr(expected), agreed[key], note)
    return None


def _disputed_raises(node: ast.With, agreed: Mapping[str, str]) -> DisputedCheck | None:
    """``call raises X (got)`` for a ``pytest.raises`` block whose only statement is a
    call the agreeing candidates return a value for."""
    raises = expected_raises(node)
    if len(raises) != 1 or len(node.body) != 1 or not isinstance(node.body[0], ast.Expr):
        return None
    call = node.body[0].value
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name | ast.Attribute):
        return None
    name = call.func.id if isinstance(call.func, ast.Name) else call.func.attr
    key = ast.unparse(ast.Call(func=ast.Name(id=name), args=call.args, keywords=call.keywords))
    if key not in agreed or raised_output(agreed[key]) is not None:
        return None
    expected = ast.unparse(raises[0])
    note = f"{key} in {expected} (the agreeing candidates return {agreed[key]})"
    return disputed(key, f"!{_error_name(raises[0])}", agreed[key], note)


def _error_name(raises: ast.expr) -> str:
    """``ValueError`` of ``pytest.raises(ValueError)`` (the first of a tuple of errors)."""
    error = raises.args[0] if isinstance(raises, ast.Call) and raises.args else raises
    error = error.elts[0] if isinstance(error, ast.Tuple) and error.elts else error
    return ast.unparse(error).rsplit(".", 1)[-1]


def _disputed_check(node: ast.Assert | ast.With, agreed: Mapping[str, str]) -> DisputedCheck | None:
    if isinstance(node, ast.Assert):
        return _disputed(node, agreed)
    return _disputed_raises(node, agreed)


def _checks(function: ast.AST) -> int:
    """Assertions and ``raises`` blocks in a test function."""
    count = 0
    for node in ast.walk(function):
        if isinstance(node, ast.Assert):
            count += 1
        elif isinstance(node, ast.With):
            count += bool(expected_raises(node))
    return count


def _verdict(
    function: FunctionNode, agreed: Mapping[str, str], out: list[DisputedCheck]
) -> Verdict | None:
    checks = [n for n in ast.walk(function) if isinstance(n, ast.Assert | ast.With)]
    found = [(node, d) for node in checks if (d := _disputed_check(node, agreed))]
    if not found:
        return None
    out += [d.model_copy(update={"note": f"{function.name}: {d.note}"}) for _, d in found]
    aside = [(node, d.note) for node, d in found]
    return Verdict([d.note for _, d in found], aside, remove=len(found) == _checks(function))


def edit_file(source: str, agreed: Mapping[str, str]) -> tuple[str, list[DisputedCheck]]:
    """The test file without the checks that contradict ``agreed``, and those checks."""
    found: list[DisputedCheck] = []
    edited, notes = edit_tests(source, lambda function: _verdict(function, agreed, found))
    kept = set(notes)  # an edit that does not compile is no edit: nothing was set aside
    return edited, list({d.note: d for d in found if d.note in kept}.values())
