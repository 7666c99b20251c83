"""Setting aside JUnit ``assertEquals``/``assertTrue``... checks whose expected value
contradicts what the agreeing candidates return for the call."""

from __future__ import annotations

from collections.abc import Mapping

from codeproof.core.proof import DisputedCheck
from codeproof.languages.checks import disputed, set_aside
from codeproof.languages.java.probe import call_key, java_value, output_value, same_value
from codeproof.languages.syntax import Assertion
from codeproof.languages.values import raised_note, raised_output

_CHECKS = frozenset(
    {"assertEquals", "assertArrayEquals", "assertIterableEquals", "assertTrue", "assertFalse"}
)


def _java_dispute(kind: str, args: list[str], agreed: Mapping[str, str]) -> DisputedCheck | None:
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
        raised = raised_output(agreed[key])
        if raised is not None and ok_expected:
            note = raised_note(f"{key} -> {expected_text}", raised)
            return disputed(key, expected_text, agreed[key], note)
        ok_got, got = output_value(agreed[key])
        if ok_expected and ok_got and not same_value(expected, got, tolerance):
            note = f"{key} -> {expected_text} (the agreeing candidates return {agreed[key]})"
            return disputed(key, expected_text, agreed[key], note)
    return None


def edit_file(source: str, agreed: Mapping[str, str]) -> tuple[str, list[DisputedCheck]]:
    """The test file without the checks that contradict ``agreed``, and notes on them."""

    def dispute(check: Assertion) -> DisputedCheck | None:
        if check.name not in _CHECKS:
            return None
        return _java_dispute(check.name, [a.text for a in check.arguments], agreed)

    return set_aside("java", source, dispute)
