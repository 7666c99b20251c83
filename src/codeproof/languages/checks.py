"""Setting aside the checks of a test file that contradict the agreed outputs, for any
language the syntax facade reads (its grammar finds the tests and their checks)."""

from __future__ import annotations

from collections.abc import Callable

from codeproof.core.proof import DisputedCheck
from codeproof.languages.syntax import Assertion, edit, parse

SET_ASIDE = "/* codeproof: set aside"
"""How a set-aside check's note starts (a block comment in the C family)."""

Dispute = Callable[[Assertion], DisputedCheck | None]
"""``check -> how it contradicts the agreed outputs``, or ``None``."""


def set_aside(language: str, source: str, dispute: Dispute) -> tuple[str, list[DisputedCheck]]:
    """The source with each disputed check (a whole statement) replaced by a note, and the
    tests left without any check removed; and the checks set aside (one per note)."""
    edits, found = [], []
    for check in parse(language, source).assertions():
        disputed = dispute(check) if check.statement is not None else None
        if disputed is None or check.statement is None:
            continue
        why = disputed.note.replace("*/", "* /")
        edits.append((check.statement.start, check.statement.end, f"{SET_ASIDE}, {why} */"))
        found.append(disputed)
    if not edits:
        return source, []
    edited = edit.replace(source, edits)
    tree = parse(language, edited)
    emptied = [
        case.node
        for case in tree.tests()
        if not tree.assertions(case.node)
        and any(c.text.startswith(SET_ASIDE) for c in tree.comments() if case.node.contains(c))
    ]
    return edit.remove(edited, emptied), list({d.note: d for d in found}.values())


def disputed(call: str, expected: str, agreed: str, note: str) -> DisputedCheck:
    """The record of a check of ``call`` expecting ``expected`` set aside for ``agreed``."""
    return DisputedCheck(call=call, expected=expected, agreed=agreed, note=note)
