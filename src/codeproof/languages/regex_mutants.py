"""Small edits of a regular expression's pattern (shared by every language's code mutants).

A slug maker that replaces ``[^a-z0-9]`` where it should replace ``[^a-z0-9]+``, or a
validator missing its ``^`` anchor, passes tests that never try a run of separators or a
prefix. These edits make such variants of a pattern: a quantifier dropped or changed, a
character class negated or missing one item, an anchor dropped, ``\\d``/``\\w``/``\\s``
turned into their complements. The pattern is read by a small scanner of regex syntax
(escapes, classes, quantifiers, anchors), not by searching its text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_CLASS_ITEMS = 3
"""Items removed from one character class at most (one mutant each)."""

_SHORTHANDS = {"d": "D", "D": "d", "w": "W", "W": "w", "s": "S", "S": "s"}
_ANCHOR_ESCAPES = frozenset("bBAZz")


@dataclass(frozen=True)
class Piece:
    """One token of a pattern: ``kind`` is ``escape``, ``class``, ``quantifier``,
    ``anchor`` or ``char``; ``start``/``end`` index the pattern."""

    kind: str
    start: int
    end: int
    items: tuple[tuple[int, int], ...] = ()
    """For a class: the spans of its items (a range ``a-z``, an escape, one character)."""
    negated: bool = False


def _escape_end(pattern: str, i: int) -> int:
    return min(i + 2, len(pattern))


def _class(pattern: str, i: int) -> Piece | None:
    """The character class starting at ``pattern[i] == '['``."""
    j = i + 1
    negated = j < len(pattern) and pattern[j] == "^"
    j += negated
    items: list[tuple[int, int]] = []
    first = True
    while j < len(pattern) and (pattern[j] != "]" or first):
        start = j
        j = _escape_end(pattern, j) if pattern[j] == "\\" else j + 1
        if j + 1 < len(pattern) and pattern[j] == "-" and pattern[j + 1] != "]":
            j += 1
            j = _escape_end(pattern, j) if pattern[j] == "\\" else j + 1
        items.append((start, j))
        first = False
    if j >= len(pattern):
        return None
    return Piece("class", i, j + 1, tuple(items), negated)


def _quantifier_end(pattern: str, i: int) -> int | None:
    """Where the quantifier starting at ``i`` ends (a lazy ``?`` or possessive ``+`` included)."""
    if pattern[i] in "*+?":
        end = i + 1
    elif pattern[i] == "{":
        close = pattern.find("}", i)
        inner = pattern[i + 1 : close] if close > 0 else ""
        if not inner or not all(c.isdigit() or c == "," for c in inner) or inner[0] == ",":
            return None
        end = close + 1
    else:
        return None
    if end < len(pattern) and pattern[end] in "?+":
        end += 1
    return end


def scan(pattern: str) -> list[Piece]:
    """The pieces of ``pattern``; an empty list when it cannot be read (an open class)."""
    pieces: list[Piece] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            end = _escape_end(pattern, i)
            kind = "anchor" if pattern[i + 1 : end] in _ANCHOR_ESCAPES else "escape"
            pieces.append(Piece(kind, i, end))
            i = end
        elif char == "[":
            found = _class(pattern, i)
            if found is None:
                return []
            pieces.append(found)
            i = found.end
        elif char in "^$":
            pieces.append(Piece("anchor", i, i + 1))
            i += 1
        elif (stop := _quantifier_end(pattern, i)) is not None and pieces:
            if pieces[-1].kind == "quantifier" or pattern[i - 1] in "(|":
                pieces.append(Piece("char", i, i + 1))
                i += 1
                continue
            pieces.append(Piece("quantifier", i, stop))
            i = stop
        else:
            pieces.append(Piece("char", i, i + 1))
            i += 1
    return pieces


def _edit(pattern: str, start: int, end: int, text: str) -> str:
    return pattern[:start] + text + pattern[end:]


def _piece_variants(pattern: str, piece: Piece) -> list[tuple[str, str]]:
    text = pattern[piece.start : piece.end]
    out: list[tuple[str, str]] = []
    if piece.kind == "quantifier":
        out.append((f"`{text}` dropped", _edit(pattern, piece.start, piece.end, "")))
        swap = {"+": "*", "*": "+"}.get(text[0])
        if swap:
            out.append(
                (f"`{text}` -> `{swap}`", _edit(pattern, piece.start, piece.start + 1, swap))
            )
    elif piece.kind == "class":
        if piece.negated:
            out.append(("class not negated", _edit(pattern, piece.start + 1, piece.start + 2, "")))
        else:
            out.append(("class negated", _edit(pattern, piece.start + 1, piece.start + 1, "^")))
        if len(piece.items) > 1:
            for start, end in piece.items[:MAX_CLASS_ITEMS]:
                what = pattern[start:end]
                out.append((f"`{what}` left out of `{text}`", _edit(pattern, start, end, "")))
    elif piece.kind == "anchor":
        out.append((f"anchor `{text}` dropped", _edit(pattern, piece.start, piece.end, "")))
    elif piece.kind == "escape" and text[1:] in _SHORTHANDS:
        other = "\\" + _SHORTHANDS[text[1:]]
        out.append((f"`{text}` -> `{other}`", _edit(pattern, piece.start, piece.end, other)))
    return out


def _compiles(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return False
    return True


def regex_variants(pattern: str) -> list[tuple[str, str]]:
    """``(what changed, new pattern)`` for each edit of ``pattern`` (distinct, and compiling
    where the original compiles as a Python pattern)."""
    checked = _compiles(pattern)
    seen = {pattern}
    out = []
    for piece in scan(pattern):
        for what, new in _piece_variants(pattern, piece):
            if new in seen or (checked and not _compiles(new)):
                continue
            seen.add(new)
            out.append((what, new))
    return out
