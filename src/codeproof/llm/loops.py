"""Decoding loops: a reply whose end repeats one short piece over and over.

Small models, greedy ones most, sometimes fall into a loop and spend the rest of the
token budget on it: ``10000000…`` inside a test, or one assertion line repeated with a
counter (``addBusinessDays(d, 18)``, ``addBusinessDays(d, 19)``, …) until the limit.
Measured on this project's runs: test designs of 1,536 tokens (the whole budget) that
took 159 s to 290 s, most of it the loop. :class:`LoopWatch` sees such a loop while the
reply is decoded, so the provider can stop it: what came before the loop is kept, and
the reply is reported as cut (``finish_reason="length"``), like one that hit the limit.

Two shapes count as a loop, both far longer than anything a program or a test writes
on purpose:

* the last ``max(256, 8 p)`` characters repeat one piece of ``p`` ≤ 64 characters
  exactly (``000…``, one line again and again), or the last ``4 p`` characters one
  piece of up to 512 (the same test function, name and all, four times over);
* with every run of digits read as one placeholder, the last ``max(400, 20 p)``
  characters repeat one piece of ``p`` ≤ 160 characters: twenty or more lines (or
  blocks of lines) of one shape with counting numbers. A table of numbers (a 9×9 grid,
  twelve months) stays below twenty rows of one shape;
* the last ``COUNT_LINES`` whole lines each start alike up to their first number, and
  those numbers count (one step each, the same step throughout), whatever follows
  them: ``format_duration(3661) == '1h 1m 1s'``, ``format_duration(3662) == ...``,
  whose expected values change shape every ten lines, so no one piece repeats. Seen in
  a 1.5B test design of py-durations: 682 s for 1,536 tokens, 63 such lines; and in 5
  of the 2,573 drafts and test files stored with the eval runs, each a test design
  counting 78 to 100 calls (``fizz_buzz(1)`` … ``fizz_buzz(100)``). Thirty, not twenty:
  a program may count on purpose (``case 1:`` … ``case 20:`` spelling numbers out, a
  table of numbered rows). Long lines count sooner: ``COUNT_LONG_LINES`` of them that
  make ``COUNT_LONG_CHARS`` characters or more (py-word-freq: ``word_frequencies(..., top=1)``
  … ``top=19``, each expected list one element longer, cut at 1,536 tokens after 19
  lines and 141 s; stopped at character 2,652 of 3,797, the only one of 6,414 stored
  drafts, test files and replies that this stops and thirty lines do not);
* the last ``COUNT_BLOCKS`` blocks of 2 to ``BLOCK_LINES`` whole lines are one block
  with the digits masked, and its numbers count: each number one step on from the
  same number in the block before, each place with a step of its own, two places or
  more stepping. A 1.5B test design of a wrap request wrote ``test('R10: wrapText("the
  quick brown fox", 100) ...')`` to ``R26 ... 116``, three lines each, to the 1,536-token
  limit (230 s); the lines of such a block start differently and are too long for
  twenty repeats of one shape. Of the 2,123 drafts, test files and projects stored with
  the eval runs this stops 21, each counting on to its end (``circular_shift(12, 5)`` …
  ``(12, 58)``, ``choose_num(13, 13)`` … ``(62, 62)``); a test whose name alone counts
  is no loop (two such tests to a block are counted as one test a block);
* with the digits masked so, the last ``GROW_STEPS + 1`` whole lines each repeat the
  line before with one more copy of the same piece put in: a list that grows by one
  element per line (``Set.of(d1)``, ``Set.of(d1, d2)``, …). Seen in a 1.5B spec of a
  Java class: 2,048 tokens (142 s) of acceptance examples, each one date longer. This
  shape is watched in structured replies only (see :class:`LoopWatch`).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

EXACT_PERIOD = 64
EXACT_REPEATS = 8
EXACT_SPAN = 256
BLOCK_PERIOD = 512
BLOCK_REPEATS = 4
SHAPE_PERIOD = 160
SHAPE_REPEATS = 20
SHAPE_SPAN = 400
GROW_STEPS = 6
COUNT_LINES = 30
COUNT_LONG_LINES = 10
COUNT_LONG_CHARS = 2_000
COUNT_BLOCKS = 10
BLOCK_LINES = 8
WINDOW = max(
    EXACT_PERIOD * EXACT_REPEATS, BLOCK_PERIOD * BLOCK_REPEATS, SHAPE_PERIOD * SHAPE_REPEATS
)
"""Characters of the reply's end that are looked at for a repeated piece."""
LINES_WINDOW = 16_384
"""Characters of the reply's end that are looked at for growing lines (longer: the
lines of a growing list reach hundreds of characters each)."""

_DIGITS = re.compile(r"(\d+)")
"""Runs of digits (a group, so that ``split`` keeps them)."""


def _periodic(tail: str, max_period: int, repeats: int, min_span: int, min_period: int = 1) -> int:
    """The length of ``tail``'s end that repeats one piece, as far back as it does
    (0: its end repeats none)."""
    for period in range(min_period, max_period + 1):
        span = max(min_span, repeats * period)
        if len(tail) < span:
            break
        end = tail[-span:]
        if end[period:] == end[:-period]:
            start = len(tail) - span
            while start > 0 and tail[start - 1] == tail[start - 1 + period]:
                start -= 1
            return len(tail) - start
    return 0


def _inserted(before: str, after: str) -> str | None:
    """The one piece put into ``before`` to make ``after``; None if there is none."""
    if len(after) <= len(before):
        return None
    head = 0
    while head < len(before) and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < len(before) - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    if head + tail < len(before):
        return None
    return after[head : len(after) - tail]


def _growth(text: str) -> int | None:
    """Where the run of growing lines that ``text`` ends in begins (None: no run)."""
    lines = [_DIGITS.sub("#", line) for line in _last_lines(text)]
    if len(lines) <= GROW_STEPS:
        return None
    pieces = {_inserted(a, b) for a, b in itertools.pairwise(lines[-(GROW_STEPS + 1) :])}
    if len(pieces) != 1 or None in pieces:
        return None
    run = GROW_STEPS + 1
    while run < len(lines) and _inserted(lines[-run - 1], lines[-run]) in pieces:
        run += 1
    return _start_of_last(text, run)


def _last_lines(text: str) -> list[str]:
    """The whole lines (each ended by a newline) of ``text``'s last ``LINES_WINDOW``
    characters."""
    last = text.rfind("\n")
    return text[max(0, last + 1 - LINES_WINDOW) : last + 1].split("\n")[:-1]


def _start_of_last(text: str, lines: int) -> int:
    """Where the last ``lines`` whole lines of ``text`` begin."""
    start = text.rfind("\n")
    for _ in range(lines):
        start = text.rfind("\n", 0, start)
    return start + 1


def _count_start(text: str) -> int | None:
    """Where the run of counting lines that ``text`` ends in begins (None: no run of
    ``COUNT_LINES`` lines or more, nor of ``COUNT_LONG_LINES`` making
    ``COUNT_LONG_CHARS`` characters)."""
    heads = [_first_number(line) for line in _last_lines(text)]
    run, step = 1, None
    while run < len(heads):
        line, before = heads[-run], heads[-run - 1]
        if line is None or before is None or line[0] != before[0]:
            break
        gap = line[1] - before[1]
        if gap == 0 or (step is not None and gap != step):
            break
        step, run = gap, run + 1
    if run >= COUNT_LINES:
        return _start_of_last(text, run)
    start = _start_of_last(text, run)
    long = run >= COUNT_LONG_LINES and text.rfind("\n") + 1 - start >= COUNT_LONG_CHARS
    return start if long else None


def _block_count_start(text: str) -> int | None:
    """Where the run of counting blocks that ``text`` ends in begins (None: no run of
    ``COUNT_BLOCKS`` blocks of 2 to ``BLOCK_LINES`` lines)."""
    lines = _last_lines(text)
    shapes = [_DIGITS.sub("#", line) for line in lines]
    numbers = [[int(n) for n in _DIGITS.findall(line)] for line in lines]
    for period in range(2, BLOCK_LINES + 1):
        blocks = _counting_blocks(shapes, numbers, period)
        if blocks >= COUNT_BLOCKS:
            return _start_of_last(text, blocks * period)
    return None


def _counting_blocks(shapes: list[str], numbers: list[list[int]], period: int) -> int:
    """How many blocks of ``period`` lines the end of the lines counts in: each block
    the one before it with the digits masked (``shapes``), every number of it one step on
    from the same number there (a step of its own per place, the same throughout; two
    places or more with a step). 1 when the last two blocks do not count, or when the
    blocks are made of shorter ones (counted at their own period: a test whose name
    counts alone, two tests to a block, has two places that count)."""
    last = shapes[len(shapes) - period :]
    if any(period % q == 0 and last[q:] == last[:-q] for q in range(1, period)):
        return 1
    run, steps = 1, None
    while (run + 1) * period <= len(shapes):
        end = len(shapes) - (run - 1) * period
        new, old = slice(end - period, end), slice(end - 2 * period, end - period)
        if shapes[new] != shapes[old]:
            break
        gaps = [a - b for a, b in zip(_flat(numbers[new]), _flat(numbers[old]), strict=True)]
        if (steps is None and sum(g != 0 for g in gaps) < 2) or steps not in (None, gaps):
            break
        steps, run = gaps, run + 1
    return run


def _flat(rows: list[list[int]]) -> list[int]:
    return [n for row in rows for n in row]


def _first_number(line: str) -> tuple[str, int] | None:
    """A line's text before its first number, and that number (None: no number, or
    nothing but spaces before it)."""
    found = _DIGITS.search(line)
    if found is None or not line[: found.start()].strip():
        return None
    return line[: found.start()], int(found.group())


def counting(text: str) -> bool:
    """Whether the last whole lines of ``text`` count: alike up to their first number,
    which goes up (or down) by one step each line; or blocks of lines alike but for
    their numbers, which count."""
    return _count_start(text) is not None or _block_count_start(text) is not None


def growing(text: str) -> bool:
    """Whether the last whole lines of ``text`` (digits masked) grow by one piece each."""
    return _growth(text) is not None


def _unmasked(tail: str, shape_end: int) -> int:
    """How many characters of ``tail`` the last ``shape_end`` of its masked shape are
    (each run of digits is one character of the shape)."""
    count = 0
    for piece in reversed(_DIGITS.split(tail)):
        if shape_end <= 0:
            break
        if piece.isdigit():
            count, shape_end = count + len(piece), shape_end - 1
        else:
            used = min(len(piece), shape_end)
            count, shape_end = count + used, shape_end - used
    return count


def _repetition(text: str) -> int | None:
    """Where the repeated piece that ``text`` ends in begins (None: it ends in none)."""
    tail = text[-WINDOW:]
    span = _periodic(tail, EXACT_PERIOD, EXACT_REPEATS, EXACT_SPAN) or _periodic(
        tail, BLOCK_PERIOD, BLOCK_REPEATS, 0, min_period=EXACT_PERIOD + 1
    )
    if not span:
        shape = _periodic(_DIGITS.sub("#", tail), SHAPE_PERIOD, SHAPE_REPEATS, SHAPE_SPAN)
        span = _unmasked(tail, shape) if shape else 0
    return len(text) - span if span else None


def repeating(text: str) -> bool:
    """Whether ``text`` ends in one piece (or one shape of piece) over and over."""
    return _repetition(text) is not None


def looping(text: str) -> bool:
    """Whether ``text`` ends in a decoding loop (see the module's docstring)."""
    return repeating(text) or growing(text) or counting(text)


def loop_start(text: str) -> int | None:
    """Where the decoding loop that ``text`` ends in begins; None when it ends in none.

    Everything from there on is the loop (its first piece included): a reply stopped
    in a loop keeps what came before.
    """
    found = [
        at
        for at in (_repetition(text), _growth(text), _count_start(text), _block_count_start(text))
        if at is not None
    ]
    return min(found) if found else None


@dataclass
class LoopWatch:
    """Follows a reply piece by piece; :meth:`add` says when it has fallen into a loop.

    ``growth`` also counts growing lines as a loop: right for a structured (JSON) reply,
    whose list items never grow by one piece each on purpose. Code does: a test table
    ``tri(9)``, ``tri(10)``, ``tri(11)`` with one more list element per row (3 of the
    2,228 stored drafts and test files of the eval runs), so a code reply leaves it out.
    """

    growth: bool = True
    tail: str = ""
    looped: bool = field(default=False)

    def add(self, piece: str) -> bool:
        """Take the next piece of the reply; True once its end is a loop."""
        if not piece or self.looped:
            return self.looped
        self.tail = (self.tail + piece)[-max(2 * WINDOW, LINES_WINDOW) :]
        # Lines only grow or count when one ends: the line checks run at line ends alone.
        ended = "\n" in piece
        self.looped = (
            repeating(self.tail)
            or (ended and counting(self.tail))
            or (self.growth and ended and growing(self.tail))
        )
        return self.looped
