"""Edits of a source at the spans of parsed nodes: replace them, or remove them whole.

Only what the edit touches changes: a removed statement takes its line with it when
nothing else is on that line, and never leaves two blank lines where there was one; the
rest of the file (strings, comments, blank lines elsewhere) stays as written.
"""

from __future__ import annotations

from collections.abc import Iterable

from codeproof.languages.syntax.tree import Node

Edit = tuple[int, int, str]
"""``(start, end, new text)``: ``source[start:end]`` becomes ``new text``."""


def replace(source: str, edits: Iterable[Edit]) -> str:
    """``source`` with each edit made; an edit inside (or overlapping) an earlier one is
    dropped."""
    out, at = [], 0
    for start, end, text in sorted(edits, key=lambda e: (e[0], -e[1])):
        if start < at:
            continue
        out += [source[at:start], text]
        at = end
    return "".join([*out, source[at:]])


def _line_cut(source: str, start: int, end: int) -> Edit:
    """``(start, end)`` widened to whole lines when nothing else is on them (one blank line
    kept where the cut would leave two)."""
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", end)
    line_end = len(source) if line_end < 0 else line_end + 1
    before, after = source[line_start:start], source[end:line_end]
    if before.strip() or after.strip():
        return start, end, ""
    blank_before = line_start == 0 or source[:line_start].endswith("\n\n")
    next_end = source.find("\n", line_end)
    blank_after = line_end < len(source) and not source[line_end : next_end + 1].strip()
    if blank_before and blank_after and next_end >= 0:
        line_end = next_end + 1
    return line_start, line_end, ""


def remove(source: str, nodes: Iterable[Node]) -> str:
    """``source`` without ``nodes`` (each with the statement it is, ``;`` included; a node
    inside another one goes with it)."""
    spans = sorted({((n.statement or n).start, (n.statement or n).end) for n in nodes})
    outer: list[tuple[int, int]] = []
    for start, end in spans:
        if outer and start < outer[-1][1]:
            outer[-1] = (outer[-1][0], max(end, outer[-1][1]))
        else:
            outer.append((start, end))
    for start, end in reversed(outer):  # right to left: the offsets before stay valid
        cut_start, cut_end, _ = _line_cut(source, start, end)
        source = source[:cut_start] + source[cut_end:]
    return source
