"""Set aside single assertions that contradict what the agreeing candidates return.

A small model's test function often holds a dozen assertions of which one expects a wrong
value (``add(-100, -100) == 0``); the whole test then fails for every correct candidate
and is too coarse to quarantine. When most of the probed candidates (at least two) return
the same value for a call, and an assertion ``call == literal`` expects another value, the
assertion is replaced by a note (a test function left without any check is removed).
The user's own examples are never edited.
"""

from __future__ import annotations

import ast
import logging
import re
from collections.abc import Callable, Collection, Mapping, Sequence

from codeproof.choosing.examples import js_value, top_level_args
from codeproof.choosing.probing import MIN_SHARE, Outputs
from codeproof.languages.java.probe import call_key, java_value, output_value, same_value
from codeproof.languages.layout import layout_for
from codeproof.languages.python.pytest_edit import (
    FunctionNode,
    Verdict,
    edit_tests,
    expected_raises,
)
from codeproof.languages.tidy import JS_TEST_CALL, balanced_span, drop_javascript_calls

logger = logging.getLogger(__name__)

AssertEditor = Callable[
    [dict[str, str], Mapping[str, str], Collection[str]], tuple[dict[str, str], list[str]]
]


def consensus(
    outputs: Sequence[Outputs],
    index: int,
    calls: Sequence[str],
    sources: Sequence[str] | None = None,
) -> dict[str, str]:
    """Call -> the value candidate ``index`` returns, where most probed candidates agree.

    Only values (not raised exceptions) that at least two *different* candidates (by
    ``sources``, one text per candidate; a repeated draft is no second opinion) and more
    than :data:`~codeproof.choosing.probing.MIN_SHARE` of the probed ones return.
    """
    if not 0 <= index < len(outputs) or outputs[index] is None:
        return {}
    texts = list(sources) if sources is not None else [str(i) for i in range(len(outputs))]
    probed = [(o, t) for o, t in zip(outputs, texts, strict=True) if o is not None]
    mine = outputs[index] or []
    agreed = {}
    for k, call in enumerate(calls):
        same = [t for o, t in probed if o[k] == mine[k]]
        distinct = len(set(same))
        if distinct >= 2 and len(same) > MIN_SHARE * len(probed) and not mine[k].startswith("!"):
            agreed[call] = mine[k]
    return agreed


def _value(text: str) -> tuple[bool, object]:
    try:
        return True, ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _disputed(node: ast.Assert, agreed: Mapping[str, str]) -> str | None:
    """``"call == expected (got)"`` when the assertion contradicts the consensus."""
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
        ok_expected, expected = _value(ast.unparse(other))
        ok_got, got = _value(agreed.get(key, ""))
        if key in agreed and ok_expected and ok_got and expected != got:
            return f"{key} == {ast.unparse(other)} (the agreeing candidates return {agreed[key]})"
    return None


def _disputed_raises(node: ast.With, agreed: Mapping[str, str]) -> str | None:
    """``"call raises X (got)"`` for a ``pytest.raises`` block whose only statement is a
    call the agreeing candidates return a value for."""
    raises = expected_raises(node)
    if len(raises) != 1 or len(node.body) != 1 or not isinstance(node.body[0], ast.Expr):
        return None
    call = node.body[0].value
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name | ast.Attribute):
        return None
    name = call.func.id if isinstance(call.func, ast.Name) else call.func.attr
    key = ast.unparse(ast.Call(func=ast.Name(id=name), args=call.args, keywords=call.keywords))
    if key not in agreed:
        return None
    expected = ast.unparse(raises[0])
    return f"{key} in {expected} (the agreeing candidates return {agreed[key]})"


def _disputed_check(node: ast.Assert | ast.With, agreed: Mapping[str, str]) -> str | None:
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


def _verdict(function: FunctionNode, agreed: Mapping[str, str]) -> Verdict | None:
    checks = [n for n in ast.walk(function) if isinstance(n, ast.Assert | ast.With)]
    found = [(node, why) for node in checks if (why := _disputed_check(node, agreed))]
    if not found:
        return None
    return Verdict([why for _, why in found], found, remove=len(found) == _checks(function))


def _edit_python_file(source: str, agreed: Mapping[str, str]) -> tuple[str, list[str]]:
    return edit_tests(source, lambda function: _verdict(function, agreed))


_JS_ASSERT = re.compile(r"\bassert\.(?:deepStrictEqual|strictEqual|deepEqual|equal)\s*\(")


def _edit_javascript_file(source: str, agreed: Mapping[str, str]) -> tuple[str, list[str]]:
    out, notes, at = [], [], 0
    for match in _JS_ASSERT.finditer(source):
        if match.start() < at:
            continue
        span = balanced_span(source, match.end() - 1)
        args = top_level_args(span) if span else []
        if span is None or len(args) < 2 or args[0] not in agreed:
            continue
        ok_expected, expected = js_value(args[1])
        ok_got, got = js_value(agreed[args[0]])
        if not (ok_expected and ok_got) or expected == got:
            continue
        end = match.end() - 1 + len(span)
        end += source[end : end + 1] == ";"
        why = f"{args[0]} -> {args[1]} (the agreeing candidates return {agreed[args[0]]})"
        why = why.replace("*/", "* /")
        out += [source[at : match.start()], f"/* codeproof: set aside, {why} */"]
        notes.append(why)
        at = end
    edited = drop_javascript_calls("".join([*out, source[at:]]), JS_TEST_CALL, _emptied)
    return edited, list(dict.fromkeys(notes))


def _emptied(test: str) -> bool:
    """A test whose checks were all set aside."""
    return "/* codeproof: set aside" in test and not re.search(r"\b(?:assert|expect)\b", test)


_JAVA_ASSERT = re.compile(
    r"(?<![\w$.])(?:Assertions\s*\.\s*)?"
    r"(assertEquals|assertArrayEquals|assertIterableEquals|assertTrue|assertFalse)\s*\("
)
_JAVA_TEST = re.compile(
    r"@Test\b(?:\s*@[\w.]+(?:\([^()]*\))?)*\s*(?:public\s+|protected\s+|private\s+)?"
    r"void\s+[\w$]+\s*\([^()]*\)\s*(?:throws\s+[\w$.,\s]+)?(?=\{)"
)


def _java_dispute(kind: str, args: list[str], agreed: Mapping[str, str]) -> str | None:
    """``"call -> expected (got)"`` when a JUnit assertion contradicts the consensus."""
    if kind in {"assertTrue", "assertFalse"}:
        pairs = [(args[0], "true" if kind == "assertTrue" else "false")] if args else []
    else:
        pairs = [(args[1], args[0]), (args[0], args[1])] if len(args) >= 2 else []
    tolerance = 0.0
    if kind == "assertEquals" and len(args) > 2:  # assertEquals(expected, actual, delta)
        ok_delta, delta = java_value(args[2])
        tolerance = float(delta) if ok_delta and isinstance(delta, int | float) else 0.0
    for actual, expected_text in pairs:
        key = call_key(actual)
        if key is None or key not in agreed:
            continue
        ok_expected, expected = java_value(expected_text)
        ok_got, got = output_value(agreed[key])
        if ok_expected and ok_got and not same_value(expected, got, tolerance):
            return f"{key} -> {expected_text} (the agreeing candidates return {agreed[key]})"
    return None


def _edit_java_file(source: str, agreed: Mapping[str, str]) -> tuple[str, list[str]]:
    out, notes, at = [], [], 0
    for match in _JAVA_ASSERT.finditer(source):
        span = balanced_span(source, match.end() - 1)
        if match.start() < at or span is None:
            continue
        why = _java_dispute(match[1], top_level_args(span), agreed)
        if why is None:
            continue
        end = match.end() - 1 + len(span)
        end += source[end : end + 1] == ";"
        why = why.replace("*/", "* /")
        out += [source[at : match.start()], f"/* codeproof: set aside, {why} */"]
        notes.append(why)
        at = end
    edited = "".join([*out, source[at:]])
    return _drop_emptied_java_tests(edited), list(dict.fromkeys(notes))


def _drop_emptied_java_tests(source: str) -> str:
    """The source without the ``@Test`` methods whose checks were all set aside."""
    out, at = [], 0
    for match in _JAVA_TEST.finditer(source):
        body = balanced_span(source, match.end())
        if match.start() < at or body is None or not _emptied_java(body):
            continue
        out.append(source[at : match.start()])
        at = match.end() + len(body)
    return "".join([*out, source[at:]])


def _emptied_java(body: str) -> bool:
    return "/* codeproof: set aside" in body and not re.search(r"\b(?:assert\w*|fail)\s*\(", body)


FileEditor = Callable[[str, Mapping[str, str]], tuple[str, list[str]]]
"""``(test file source, agreed outputs) -> (edited source, notes)``."""

FILE_EDITORS: dict[str, FileEditor] = {
    "python": _edit_python_file,
    "javascript": _edit_javascript_file,
    "java": _edit_java_file,
}
"""Languages whose single assertions can be set aside (the others: whole tests only)."""


def edit_asserts(
    language: str, tests: dict[str, str], agreed: Mapping[str, str], protected: Collection[str]
) -> tuple[dict[str, str], list[str]]:
    """The test files without the assertions that contradict ``agreed`` (``protected``
    paths and languages without a :data:`FILE_EDITORS` entry are left as they are).

    Returns:
        The test files, and one ``path::note`` per assertion set aside.
    """
    edit = FILE_EDITORS.get(language)
    layout = layout_for(language)
    edited, notes = dict(tests), []
    for path, source in tests.items():
        if edit is None or path in protected or not layout.is_test_path(path):
            continue
        new, found = edit(source, agreed)
        if found:
            edited[path] = new
            notes += [f"{path}::{note}" for note in dict.fromkeys(found)]
    return edited, notes
