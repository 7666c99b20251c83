"""Reference solution of py-word-freq."""

import re
from collections import Counter

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")


def word_frequencies(text: str, top: int | None = None) -> list[tuple[str, int]]:
    if top is not None and top < 0:
        raise ValueError("top must not be negative")
    counts = Counter(w.lower() for w in _WORD.findall(text))
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return ranked if top is None else ranked[:top]


def top_word(text: str) -> str | None:
    ranked = word_frequencies(text, top=1)
    return ranked[0][0] if ranked else None
