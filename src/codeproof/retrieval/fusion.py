"""Ranking helpers shared by stores: reciprocal rank fusion and a small BM25."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

RRF_K = 60
"""The constant of reciprocal rank fusion (Cormack et al. 2009; LanceDB's default)."""

_WORD = re.compile(r"[A-Za-z0-9]+")


def rrf(rankings: Iterable[Sequence[str]], k: int = RRF_K) -> list[tuple[str, float]]:
    """Fuse ranked id lists: each id scores ``sum(1 / (k + rank))``, rank from 1."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))


def terms(text: str) -> list[str]:
    """Lower-cased alphanumeric words; ``snake_case`` and ``camelCase`` also split."""
    out: list[str] = []
    for word in _WORD.findall(text.replace("_", " ")):
        lower = word.lower()
        out.append(lower)
        parts = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", word)
        if len(parts) > 1:
            out.extend(p.lower() for p in parts)
    return out


def bm25(
    query: str, documents: Mapping[str, str], *, k1: float = 1.2, b: float = 0.75
) -> list[tuple[str, float]]:
    """Okapi BM25 scores of ``documents`` (id -> text) for ``query``; zero scores left out."""
    wanted = set(terms(query))
    if not wanted or not documents:
        return []
    counted = {key: Counter(terms(text)) for key, text in documents.items()}
    lengths = {key: sum(c.values()) for key, c in counted.items()}
    average = sum(lengths.values()) / len(lengths) or 1.0
    n = len(documents)
    frequency = {t: sum(1 for c in counted.values() if t in c) for t in wanted}
    out = []
    for key, counts in counted.items():
        score = 0.0
        for term in wanted:
            tf = counts.get(term, 0)
            if not tf:
                continue
            idf = math.log(1 + (n - frequency[term] + 0.5) / (frequency[term] + 0.5))
            score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * lengths[key] / average))
        if score > 0:
            out.append((key, score))
    return sorted(out, key=lambda item: (-item[1], item[0]))
