"""Test doubles of the retrieval seams: a deterministic bag-of-words embedder."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from pathlib import Path

from codeproof.retrieval.fusion import terms

FIXTURES = Path(__file__).parent / "fixtures"


class WordsEmbedder:
    """Each word adds 1 to a hashed dimension; vectors are L2-normalised.

    Texts sharing words are near; it counts the texts it embeds (``calls``, ``texts``).
    """

    def __init__(self, dimension: int = 64, name: str = "words-test") -> None:
        self.name = name
        self.dimension = dimension
        self.texts: list[str] = []
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        self.texts.extend(texts)
        return [self._vector(t) for t in texts]

    def _vector(self, text: str) -> list[float]:
        v = [0.0] * self.dimension
        for word in terms(text):
            v[int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dimension] += 1.0
        norm = math.sqrt(sum(x * x for x in v)) or 1.0
        return [x / norm for x in v]


class FailingEmbedder(WordsEmbedder):
    """Fails on the ``after``-th call (to show that nothing half-written stays)."""

    def __init__(self, after: int) -> None:
        super().__init__()
        self.after = after

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self.calls + 1 >= self.after:
            raise RuntimeError("embedding service fell over")
        return super().embed(texts)
