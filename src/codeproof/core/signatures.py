"""What an interface text declares, apart from the types it returns.

A module's interface is the specification's free text: ``word_frequencies(text: str,
top: int = None) -> list of (word, count) tuples``. Every reader of declared names looks
for a call-like ``name(``, and the prose of a return type has one (``of (``): py-word-freq
at ``68dd645`` told the repairer to "define `of`, which the interface declares", beside
the failing examples it had to fix. :func:`declaring_part` blanks each return annotation
(``->`` up to the end of its signature) so that only the signatures' own names are read.
"""

from __future__ import annotations

_OPEN = "([{<"
_CLOSE = ")]}>"


def declaring_part(interface: str) -> str:
    """``interface`` with every return annotation blanked out, offsets and lines kept.

    An annotation runs from ``->`` to the end of its line, a ``;``, or a ``,`` or closing
    bracket outside the brackets it opened (the next signature of a comma-separated list,
    the end of an enclosing one)."""
    return "\n".join(_blank_returns(line) for line in interface.split("\n"))


def _blank_returns(line: str) -> str:
    out = list(line)
    depth, start = 0, -1
    i = 0
    while i < len(line):
        char = line[i]
        if start < 0 and line.startswith("->", i):
            start, depth = i, 0
            i += 2
            continue
        if start >= 0:
            if char in _OPEN:
                depth += 1
            elif char in _CLOSE and depth > 0:
                depth -= 1
            elif char in ";" + _CLOSE or (char == "," and depth == 0):
                out[start:i] = " " * (i - start)
                start = -1
        i += 1
    if start >= 0:
        out[start:] = " " * (len(line) - start)
    return "".join(out)
