"""Setting aside JUnit ``assertEquals``/``assertTrue``... checks whose expected value
contradicts what the agreeing candidates return for the call."""

from __future__ import annotations

from collections.abc import Mapping

from codeproof.languages.checks import disputed_checks, set_aside
from codeproof.languages.java.probe import call_key, java_value, output_value, same_value
from codeproof.languages.syntax import Assertion
from codeproof.languages.values import Disputed, raised_note, raised_output

_CHECKS = frozenset(
    {"assertEquals", "assertArrayEquals", "assertIterableEquals", "assertTrue", "assertFalse"}
)


def _java_dispute(kind: str, args: list[str], agreed: Mapping[str, str]) -> Disputed | None:
    """``call -> expected (got)`` when a JUnit assertion contradicts the consensus."""
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
        raised = raised_output(agreed[key])
        if raised is not None and ok_expected:
            return Disputed(key, expected_text, raised_note(f"{key} -> {expected_text}", raised))
        ok_got, got = output_value(agreed[key])
        if ok_expected and ok_got and not same_value(expected, got, tolerance):
            why = f"{key} -> {expected_text} (the agreeing candidates return {agreed[key]})"
            return Disputed(key, expected_text, why)
    return None


def _dispute(check: Assertion, agreed: Mapping[str, str]) -> Disputed | None:
    if check.name not in _CHECKS:
        return None
    return _java_dispute(check.name, [a.text for a in check.arguments], agreed)


def edit_file(source: str, agreed: Mapping[str, str]) -> tuple[str, list[str]]:
    """The test file without the checks that contradict ``agreed``, and notes on them."""

    def note(check: Assertion) -> str | None:
        disputed = _dispute(check, agreed)
        return disputed.note if disputed is not None else None

    return set_aside("java", source, note)


def contested(source: str, agreed: Mapping[str, str]) -> list[Disputed]:
    """The checks of a test file that contradict ``agreed``, in order."""
    return disputed_checks("java", source, lambda check: _dispute(check, agreed))
