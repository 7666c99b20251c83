"""The store seam: where chunks and their vectors live, and how they are searched.

One small protocol (:class:`Store`) with a conformance suite
(``tests/retrieval/store_conformance.py``) and two implementations chosen by name from
:data:`STORES`: LanceDB (embedded, on disk: hybrid full-text + vector search with rank
fusion) and an in-memory double. A server store (PostgreSQL + pgvector) is one more entry.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Protocol

from codeproof.core.errors import ConfigError
from codeproof.retrieval.models import Hit, Query, StoredChunk

Vector = Sequence[float]


class Store(Protocol):
    """Chunks with their vectors, grouped by source and document path.

    Writes are per document: :meth:`replace` swaps all chunks of some documents of one
    source at once, so a document is never half-indexed.
    """

    def documents(self, source: str) -> dict[str, str]:
        """``path -> document hash`` of every document of ``source``."""
        ...

    def vectors(self, source: str, text_hashes: Collection[str]) -> dict[str, list[float]]:
        """Stored vectors of ``source``'s chunks by text hash (for re-use)."""
        ...

    def replace(
        self,
        source: str,
        paths: Collection[str],
        chunks: Sequence[StoredChunk],
        vectors: Sequence[Vector],
    ) -> None:
        """Delete every chunk of ``paths`` in ``source``, then add ``chunks``.

        Raises:
            ValueError: ``chunks`` and ``vectors`` differ in length, or a chunk is of
                another source.
        """
        ...

    def drop_source(self, source: str) -> int:
        """Delete every chunk of ``source``; returns how many there were."""
        ...

    def search(self, query: Query) -> list[Hit]:
        """At most ``query.k`` hits, best first, within the query's filters.

        Raises:
            ValueError: A vector or hybrid query without a vector.
        """
        ...

    def count(self, source: str | None = None) -> int:
        """Chunks stored (of one source, or all)."""
        ...

    def size_bytes(self) -> int:
        """Bytes the store takes on disk (0 in memory)."""
        ...

    def compact(self) -> None:
        """Fold recent writes into the search indexes (after a batch of writes)."""
        ...

    def close(self) -> None:
        """Release what the store holds open."""
        ...


StoreFactory = Callable[[Path, int], Store]
"""``(directory, vector dimension) -> Store`` (nothing is opened before first use)."""


def check_replace(source: str, chunks: Sequence[StoredChunk], vectors: Sequence[Vector]) -> None:
    """The arguments :meth:`Store.replace` refuses."""
    if len(chunks) != len(vectors):
        raise ValueError(f"{len(chunks)} chunks but {len(vectors)} vectors")
    other = next((c.source for c in chunks if c.source != source), None)
    if other is not None:
        raise ValueError(f"a chunk of source {other!r} given for source {source!r}")


def _lancedb(directory: Path, dimension: int) -> Store:
    from codeproof.retrieval.stores.lance import LanceStore  # heavy: lancedb, pyarrow

    return LanceStore(directory, dimension)


def _memory(directory: Path, dimension: int) -> Store:
    from codeproof.retrieval.stores.memory import MemoryStore

    return MemoryStore(dimension)


STORES: dict[str, StoreFactory] = {"lancedb": _lancedb, "memory": _memory}
"""Store implementations by the name ``retrieval.store`` gives."""


def open_store(name: str, directory: Path, dimension: int) -> Store:
    """The store named ``name`` (lazy: nothing opens until first use).

    Raises:
        ConfigError: No store has that name.
    """
    factory = STORES.get(name)
    if factory is None:
        raise ConfigError(
            f"unknown retrieval store {name!r}",
            hint=f"set retrieval.store to one of: {', '.join(sorted(STORES))}",
        )
    return factory(directory, dimension)
