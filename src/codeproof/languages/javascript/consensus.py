"""Setting aside ``assert.equal(call, expected)`` checks (and their kin) whose expected
value contradicts what the agreeing candidates return for the call."""

from __future__ import annotations

from collections.abc import Mapping

from codeproof.core.proof import DisputedCheck
from codeproof.languages.checks import disputed, set_aside
from codeproof.languages.syntax import Assertion
from codeproof.languages.values import js_value, raised_note, raised_output

_CHECKS = frozenset({"deepStrictEqual", "strictEqual", "deepEqual", "equal"})


def _dispute(check: Assertion, agreed: Mapping[str, str]) -> DisputedCheck | None:
    """``"call -> expected (got)"`` for ``assert.equal(call, expected)`` and its kin."""
    call = check.node.as_call()
    receiver = call.receiver if call is not None else None
    args = [a.text for a in check.arguments]
    if check.name not in _CHECKS or receiver is None or len(args) < 2:
        return None
    if receiver.text.split(".")[-1] != "assert" or args[0] not in agreed:
        return None
    ok_expected, expected = js_value(args[1])
    raised = raised_output(agreed[args[0]])
    if raised is not None:
        if not ok_expected:
            return None
        note = raised_note(f"{args[0]} -> {args[1]}", raised)
        return disputed(args[0], args[1], agreed[args[0]], note)
    ok_got, got = js_value(agreed[args[0]])
    if not (ok_expected and ok_got) or expected == got:
        return None
    note = f"{args[0]} -> {args[1]} (the agreeing candidates return {agreed[args[0]]})"
    return disputed(args[0], args[1], agreed[args[0]], note)


def edit_file(source: str, agreed: Mapping[str, str]) -> tuple[str, list[DisputedCheck]]:
    """The test file without the checks that contradict ``agreed``, and notes on them."""
    return set_aside("javascript", source, lambda check: _dispute(check, agreed))
