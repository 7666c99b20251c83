"""The LanceDB store: embedded, on disk, hybrid full-text + vector search with RRF.

One table ``chunks`` holds every source. A document's chunks are swapped in one
``merge_insert`` commit (a reader never sees a half-indexed document). The full-text
index covers ``search_text`` (the chunk text plus its symbol split into words, so
``parse_date`` is also found as ``parse date``); rows written after it was built are
searched as unindexed rows until :meth:`LanceStore.compact` (run after each indexing).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Collection, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import lancedb
import pyarrow as pa
from lancedb.index import FTS
from lancedb.rerankers import RRFReranker

from codeproof.retrieval.fusion import RRF_K, terms
from codeproof.retrieval.models import Hit, Query, StoredChunk
from codeproof.retrieval.store import Vector, check_replace

logger = logging.getLogger(__name__)

TABLE = "chunks"
FTS_INDEX = "search_text_idx"
VECTOR_INDEX = "vector_idx"
KEEP_VERSIONS = timedelta(minutes=10)
"""Old table versions are kept this long (a concurrent reader may still use one)."""
ANN_MIN_ROWS = 50_000
"""Below this, vector search scans every row (exact, and fast enough)."""
_TEXT_FIELDS = ("id", "source", "source_kind", "path", "text", "symbol", "signature", "kind")
_MORE_TEXT = ("language", "url", "doc_hash", "text_hash")


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _in(column: str, values: Collection[str]) -> str:
    return f"{column} IN ({', '.join(_quote(v) for v in sorted(values))})"


class LanceStore:
    """Chunks in a LanceDB table under ``directory``.

    Args:
        directory: The database directory (created on first write).
        dimension: The vectors' length.
    """

    def __init__(self, directory: Path, dimension: int) -> None:
        self.directory = directory
        self.dimension = dimension
        self._db: Any = None
        self._table: Any = None
        self._lock = threading.Lock()

    def _schema(self) -> pa.Schema:
        fields = [pa.field(name, pa.string()) for name in (*_TEXT_FIELDS, *_MORE_TEXT)]
        return pa.schema(
            [
                *fields,
                pa.field("start_line", pa.int32()),
                pa.field("end_line", pa.int32()),
                pa.field("search_text", pa.string()),
                pa.field("vector", pa.list_(pa.float32(), self.dimension)),
            ]
        )

    def _open(self, *, create: bool) -> Any:
        """The table (``None`` when it does not exist and ``create`` is false)."""
        with self._lock:
            if self._table is not None:
                return self._table
            if self._db is None:
                if not create and not self.directory.exists():
                    return None
                self._db = lancedb.connect(str(self.directory))
            if TABLE in self._db.list_tables().tables:
                table = self._db.open_table(TABLE)
                self._check_schema(table)
            elif create:
                table = self._db.create_table(TABLE, schema=self._schema())
            else:
                return None
            self._table = table
            return table

    def _check_schema(self, table: Any) -> None:
        vector = table.schema.field("vector").type
        if getattr(vector, "list_size", None) != self.dimension:
            raise ValueError(
                f"the index holds vectors of {vector.list_size} dimensions, not {self.dimension}"
            )

    def documents(self, source: str) -> dict[str, str]:
        rows = self._select(f"source = {_quote(source)}", ["path", "doc_hash"])
        return {r["path"]: r["doc_hash"] for r in rows}

    def vectors(self, source: str, text_hashes: Collection[str]) -> dict[str, list[float]]:
        if not text_hashes:
            return {}
        where = f"source = {_quote(source)} AND {_in('text_hash', text_hashes)}"
        rows = self._select(where, ["text_hash", "vector"])
        return {r["text_hash"]: list(r["vector"]) for r in rows}

    def _select(self, where: str, columns: list[str]) -> list[dict[str, Any]]:
        table = self._open(create=False)
        if table is None:
            return []
        rows: list[dict[str, Any]] = table.search().where(where).select(columns).to_list()
        return rows

    def replace(
        self,
        source: str,
        paths: Collection[str],
        chunks: Sequence[StoredChunk],
        vectors: Sequence[Vector],
    ) -> None:
        check_replace(source, chunks, vectors)
        if not paths and not chunks:
            return
        table = self._open(create=True)
        rows = [self._row(c, v) for c, v in zip(chunks, vectors, strict=True)]
        gone = set(paths) | {c.path for c in chunks}
        scope = f"source = {_quote(source)} AND {_in('path', gone)}"
        data = pa.Table.from_pylist(rows, schema=self._schema())
        (
            table.merge_insert("id")
            .when_matched_update_all()
            .when_not_matched_insert_all()
            .when_not_matched_by_source_delete(scope)
            .execute(data)
        )
        self._refresh_fts(table)

    def _row(self, chunk: StoredChunk, vector: Vector) -> dict[str, Any]:
        if len(vector) != self.dimension:
            raise ValueError(
                f"a vector of {len(vector)} dimensions; the store holds {self.dimension}"
            )
        row = chunk.model_dump()
        words = " ".join(terms(f"{chunk.symbol} {chunk.signature}"))
        row["search_text"] = f"{chunk.text}\n{words}"
        row["vector"] = [float(x) for x in vector]
        return row

    def _refresh_fts(self, table: Any) -> None:
        """Create the full-text index once; rows written later are searched too (as
        unindexed rows) until :meth:`compact` folds them in."""
        if not any(i.name == FTS_INDEX for i in table.list_indices()):
            table.create_index("search_text", config=FTS(stem=True), name=FTS_INDEX)

    def drop_source(self, source: str) -> int:
        table = self._open(create=False)
        if table is None:
            return 0
        where = f"source = {_quote(source)}"
        gone: int = table.count_rows(where)
        if gone:
            table.delete(where)
            self._refresh_fts(table)
        return gone

    def search(self, query: Query) -> list[Hit]:
        if query.mode != "fts" and query.vector is None:
            raise ValueError(f"a {query.mode} search needs a query vector")
        table = self._open(create=False)
        if table is None or (not query.text.strip() and query.mode != "vector"):
            return []
        if query.mode == "fts":
            builder = table.search(query.text, query_type="fts", fts_columns="search_text")
        elif query.mode == "vector":
            builder = table.search(list(query.vector or []), query_type="vector")
            builder = builder.distance_type("cosine")
        else:
            builder = (
                table.search(query_type="hybrid", fts_columns="search_text")
                .vector(list(query.vector or []))
                .text(query.text)
                .distance_type("cosine")
                .rerank(RRFReranker(K=RRF_K))
            )
        where = _filter(query)
        if where:
            builder = builder.where(where, prefilter=True)
        rows = builder.limit(query.k).to_list()
        return [Hit(chunk=_chunk(r), score=_score(r, query)) for r in rows]

    def count(self, source: str | None = None) -> int:
        table = self._open(create=False)
        if table is None:
            return 0
        n: int = table.count_rows(f"source = {_quote(source)}" if source else None)
        return n

    def size_bytes(self) -> int:
        if not self.directory.exists():
            return 0
        return sum(p.stat().st_size for p in self.directory.rglob("*") if p.is_file())

    def compact(self, keep: timedelta = KEEP_VERSIONS) -> None:
        """Fold new rows into the indexes, merge the small files writes leave and drop
        table versions older than ``keep``; from :data:`ANN_MIN_ROWS` rows on, vector
        search gets an approximate index (IVF + HNSW, scalar-quantised), built once."""
        table = self._open(create=False)
        if table is None:
            return
        names = {i.name for i in table.list_indices()}
        if VECTOR_INDEX not in names and table.count_rows() >= ANN_MIN_ROWS:
            table.create_index(
                metric="cosine", index_type="IVF_HNSW_SQ", name=VECTOR_INDEX, replace=True
            )
        table.optimize(cleanup_older_than=keep)

    def close(self) -> None:
        with self._lock:
            self._table = None
            self._db = None


def _filter(query: Query) -> str:
    parts = []
    if query.sources:
        parts.append(_in("source", query.sources))
    if query.kinds:
        parts.append(_in("source_kind", query.kinds))
    if query.chunk_kinds:
        parts.append(_in("kind", query.chunk_kinds))
    return " AND ".join(parts)


def _chunk(row: dict[str, Any]) -> StoredChunk:
    return StoredChunk.model_validate({k: row[k] for k in StoredChunk.model_fields if k in row})


def _score(row: dict[str, Any], query: Query) -> float:
    if query.mode == "fts":
        return float(row.get("_score", 0.0))
    if query.mode == "vector":
        return 1.0 - float(row.get("_distance", 1.0))
    return float(row.get("_relevance_score", 0.0))
