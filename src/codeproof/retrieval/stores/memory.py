"""An in-memory :class:`~codeproof.retrieval.store.Store` (the test double; nothing on disk).

Full-text search is BM25 over the chunk texts, vector search is cosine similarity, and
hybrid search fuses both rankings by reciprocal rank, as the LanceDB store does.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Collection, Sequence

from codeproof.retrieval.fusion import bm25, rrf
from codeproof.retrieval.models import Hit, Query, StoredChunk
from codeproof.retrieval.store import Vector, check_replace

CANDIDATES = 50
"""How many hits of each ranking enter the fusion (at least ``k``)."""


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


class MemoryStore:
    """Chunks and vectors in dictionaries. Thread-safe.

    Args:
        dimension: The vectors' length (checked on every write and query).
    """

    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self._rows: dict[str, tuple[StoredChunk, list[float]]] = {}
        self._lock = threading.Lock()

    def documents(self, source: str) -> dict[str, str]:
        with self._lock:
            return {c.path: c.doc_hash for c, _ in self._rows.values() if c.source == source}

    def vectors(self, source: str, text_hashes: Collection[str]) -> dict[str, list[float]]:
        wanted = set(text_hashes)
        with self._lock:
            return {
                c.text_hash: list(v)
                for c, v in self._rows.values()
                if c.source == source and c.text_hash in wanted
            }

    def replace(
        self,
        source: str,
        paths: Collection[str],
        chunks: Sequence[StoredChunk],
        vectors: Sequence[Vector],
    ) -> None:
        check_replace(source, chunks, vectors)
        for vector in vectors:
            self._check_dimension(vector)
        gone = set(paths)
        with self._lock:
            self._rows = {
                key: row
                for key, row in self._rows.items()
                if not (row[0].source == source and row[0].path in gone)
            }
            for chunk, vector in zip(chunks, vectors, strict=True):
                self._rows[chunk.id] = (chunk, [float(x) for x in vector])

    def drop_source(self, source: str) -> int:
        with self._lock:
            before = len(self._rows)
            self._rows = {k: r for k, r in self._rows.items() if r[0].source != source}
            return before - len(self._rows)

    def search(self, query: Query) -> list[Hit]:
        if query.mode != "fts":
            if query.vector is None:
                raise ValueError(f"a {query.mode} search needs a query vector")
            self._check_dimension(query.vector)
        with self._lock:
            rows = {k: r for k, r in self._rows.items() if _wanted(r[0], query)}
        depth = max(CANDIDATES, query.k)
        by_text = bm25(query.text, {k: r[0].text for k, r in rows.items()})[:depth]
        by_vector: list[tuple[str, float]] = []
        if query.vector is not None and query.mode != "fts":
            scored = [(k, cosine(query.vector, r[1])) for k, r in rows.items()]
            by_vector = sorted(scored, key=lambda item: (-item[1], item[0]))[:depth]
        if query.mode == "fts":
            ranked = by_text
        elif query.mode == "vector":
            ranked = by_vector
        else:
            ranked = rrf([[k for k, _ in by_vector], [k for k, _ in by_text]])
        return [Hit(chunk=rows[k][0], score=score) for k, score in ranked[: query.k]]

    def count(self, source: str | None = None) -> int:
        with self._lock:
            return sum(1 for c, _ in self._rows.values() if source is None or c.source == source)

    def size_bytes(self) -> int:
        return 0

    def compact(self) -> None:
        return None

    def close(self) -> None:
        return None

    def _check_dimension(self, vector: Sequence[float]) -> None:
        if len(vector) != self.dimension:
            raise ValueError(
                f"a vector of {len(vector)} dimensions; the store holds {self.dimension}"
            )


def _wanted(chunk: StoredChunk, query: Query) -> bool:
    return (
        (not query.sources or chunk.source in query.sources)
        and (not query.kinds or chunk.source_kind in query.kinds)
        and (not query.chunk_kinds or chunk.kind in query.chunk_kinds)
    )
