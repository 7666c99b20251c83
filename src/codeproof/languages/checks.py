"""Setting aside the checks of a test file that contradict the agreed outputs, for any
language the syntax facade reads (its grammar finds the tests and their checks)."""

from __future__ import annotations

from collections.abc import Callable

from codeproof.languages.syntax import Assertion, edit, parse

SET_ASIDE = "/* codeproof: set aside"
"""How a set-aside check's note starts (a block comment in the C family)."""

Dispute = Callable[[Assertion], str | None]
"""``check -> why it contradicts the agreed outputs``, or ``None``."""


def set_aside(language: str, source: str, dispute: Dispute) -> tuple[str, list[str]]:
    """The source with each disputed check (a whole statement) replaced by a note, and the
    tests left without any check removed; and the notes."""
    edits, notes = [], []
    for check in parse(language, source).assertions():
        why = dispute(check) if check.statement is not None else None
        if why is None or check.statement is None:
            continue
        why = why.replace("*/", "* /")
        edits.append((check.statement.start, check.statement.end, f"{SET_ASIDE}, {why} */"))
        notes.append(why)
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
    return edit.remove(edited, emptied), list(dict.fromkeys(notes))
