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
  twelve months) stays below twenty rows of one shape.
"""

from __future__ import annotations

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
WINDOW = max(
    EXACT_PERIOD * EXACT_REPEATS, BLOCK_PERIOD * BLOCK_REPEATS, SHAPE_PERIOD * SHAPE_REPEATS
)
"""Characters of the reply's end that are looked at."""

_DIGITS = re.compile(r"\d+")


def _periodic(tail: str, max_period: int, repeats: int, min_span: int, min_period: int = 1) -> bool:
    for period in range(min_period, max_period + 1):
        span = max(min_span, repeats * period)
        if len(tail) < span:
            break
        end = tail[-span:]
        if end[period:] == end[:-period]:
            return True
    return False


def looping(text: str) -> bool:
    """Whether ``text`` ends in a decoding loop (see the module's docstring)."""
    tail = text[-WINDOW:]
    if _periodic(tail, EXACT_PERIOD, EXACT_REPEATS, EXACT_SPAN):
        return True
    if _periodic(tail, BLOCK_PERIOD, BLOCK_REPEATS, 0, min_period=EXACT_PERIOD + 1):
        return True
    shape = _DIGITS.sub("#", tail)
    return _periodic(shape, SHAPE_PERIOD, SHAPE_REPEATS, SHAPE_SPAN)


@dataclass
class LoopWatch:
    """Follows a reply piece by piece; :meth:`add` says when it has fallen into a loop."""

    tail: str = ""
    looped: bool = field(default=False)

    def add(self, piece: str) -> bool:
        """Take the next piece of the reply; True once its end is a loop."""
        if not piece or self.looped:
            return self.looped
        self.tail = (self.tail + piece)[-2 * WINDOW :]
        self.looped = looping(self.tail)
        return self.looped
