"""The incremental indexer: a source's documents -> chunks -> vectors -> the store.

A document whose content hash the store already holds is skipped (a re-run with nothing
changed chunks and embeds nothing). A changed document is chunked again; its chunks
whose text is unchanged keep their stored vectors, only new texts are embedded. A
document that is gone loses its chunks. Each batch of documents is written in one
:meth:`~.store.Store.replace` call, so an interrupted run leaves every document either
fully indexed (old or new) or not at all.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from codeproof.retrieval.chunking import chunk
from codeproof.retrieval.embedding import Embedder
from codeproof.retrieval.models import Document, StoredChunk, embed_text
from codeproof.retrieval.store import Store

logger = logging.getLogger(__name__)

BATCH_CHUNKS = 256
"""Chunks gathered before one embedding + write round."""

Progress = Callable[[int, int], None]
"""``(documents seen, chunks embedded)`` after each round."""


@dataclass
class IndexStats:
    """What one indexing of one source did."""

    source: str
    documents: int = 0
    changed: int = 0
    removed: int = 0
    chunks: int = 0
    embedded: int = 0
    reused: int = 0
    seconds: float = 0.0


@dataclass
class _Batch:
    paths: list[str]
    chunks: list[StoredChunk]


def index_source(
    store: Store,
    embedder: Embedder,
    source: str,
    source_kind: str,
    docs: Iterable[Document],
    *,
    progress: Progress | None = None,
) -> IndexStats:
    """Bring ``source``'s chunks in ``store`` up to date with ``docs``."""
    started = time.perf_counter()
    stats = IndexStats(source=source)
    known = store.documents(source)
    seen: set[str] = set()
    batch = _Batch([], [])
    for doc in docs:
        if doc.path in seen:
            logger.info("%s: %s listed twice; the first one is indexed", source, doc.path)
            continue
        seen.add(doc.path)
        stats.documents += 1
        doc_hash = doc.hash
        if known.get(doc.path) == doc_hash:
            continue
        stats.changed += 1
        batch.paths.append(doc.path)
        batch.chunks.extend(StoredChunk.of(source, source_kind, doc_hash, c) for c in chunk(doc))
        if len(batch.chunks) >= BATCH_CHUNKS:
            _write(store, embedder, source, batch, stats)
            batch = _Batch([], [])
            if progress:
                progress(stats.documents, stats.embedded)
    gone = sorted(set(known) - seen)
    stats.removed = len(gone)
    batch.paths.extend(gone)
    _write(store, embedder, source, batch, stats)
    if stats.changed or stats.removed:
        store.compact()
    if progress:
        progress(stats.documents, stats.embedded)
    stats.seconds = time.perf_counter() - started
    return stats


def _write(store: Store, embedder: Embedder, source: str, batch: _Batch, stats: IndexStats) -> None:
    if not batch.paths:
        return
    chunks = _unique(batch.chunks)
    hashes = {c.text_hash for c in chunks}
    stored = store.vectors(source, hashes)
    missing = sorted(hashes - set(stored))
    by_hash = {c.text_hash: c for c in chunks}
    fresh = embedder.embed([_text(by_hash[h]) for h in missing]) if missing else []
    vectors = {**stored, **dict(zip(missing, fresh, strict=True))}
    store.replace(source, batch.paths, chunks, [vectors[c.text_hash] for c in chunks])
    stats.chunks += len(chunks)
    stats.embedded += len(missing)
    stats.reused += len(chunks) - len(missing)


def _text(c: StoredChunk) -> str:
    return embed_text(c.path, c.symbol, c.text)


def _unique(chunks: list[StoredChunk]) -> list[StoredChunk]:
    """Chunks with distinct ids (two identical chunks of one document are one)."""
    return list({c.id: c for c in chunks}.values())
