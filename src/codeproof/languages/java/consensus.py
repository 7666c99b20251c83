"""TODO-DOC"""

from __future__ import annotations

import re
from collections.abc import Mapping

from codeproof.languages.clike import balanced_span, top_level_args
from codeproof.languages.java.probe import call_key, java_value, output_value, same_value

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


def edit_file(source: str, agreed: Mapping[str, str]) -> tuple[str, list[str]]:
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
