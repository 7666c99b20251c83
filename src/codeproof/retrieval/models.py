"""The data of retrieval: documents, chunks, queries and hits."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

SourceKind = Literal["code", "docs", "qa", "issues", "verified"]
"""How a source's documents are found and chunked (see :mod:`.sources`)."""

SOURCE_KINDS: tuple[SourceKind, ...] = ("code", "docs", "qa", "issues", "verified")

SearchMode = Literal["hybrid", "vector", "fts"]
"""Full-text and vector search fused by reciprocal rank, or one of them alone."""

SEARCH_MODES: tuple[SearchMode, ...] = ("hybrid", "vector", "fts")


def digest(text: str) -> str:
    """The content hash used for documents and chunk texts (sha256, hex)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def embed_text(path: str, symbol: str, text: str) -> str:
    """The text embedded for a chunk: where it is, its symbol and its text."""
    return f"{path}: {symbol}\n{text}" if symbol else f"{path}\n{text}"


@dataclass(frozen=True)
class Document:
    """One unit a source yields: a file, a question with its answers, an issue.

    Attributes:
        path: Where it is, relative to the source (``pkg/mod.py``, ``Posts.xml#q12``).
        text: Its content.
        format: How to chunk it: a language (``python``...) or ``markdown``, ``html``,
            ``text``, ``qa``, ``issue``.
        title: A display title (a question's or issue's title).
        url: Where a person can read it, when known.
    """

    path: str
    text: str
    format: str
    title: str = ""
    url: str = ""
    line: int = 1
    """The line of ``text``'s first line in the file it came from."""

    @property
    def hash(self) -> str:
        return digest(f"{self.format}\0{self.title}\0{self.line}\0{self.text}")


@dataclass(frozen=True)
class Chunk:
    """A piece of a document that is embedded and searched on its own.

    Attributes:
        path: The document's path.
        start_line: First line (1-based, in the document's file).
        end_line: Last line.
        text: What is shown and searched.
        symbol: The qualified symbol (``Point.distance``), heading path or title.
        signature: For code, its signature line(s): how to call it.
        kind: ``function``, ``method``, ``class``, ``module``, ``section``, ``qa``,
            ``issue``.
        language: The document's format.
        url: Where a person can read it.
    """

    path: str
    start_line: int
    end_line: int
    text: str
    symbol: str = ""
    signature: str = ""
    kind: str = "section"
    language: str = ""
    url: str = ""

    @property
    def embed_text(self) -> str:
        """What is embedded: where it is, its symbol and its text."""
        return embed_text(self.path, self.symbol, self.text)

    @property
    def text_hash(self) -> str:
        """The hash of :attr:`embed_text` (equal hashes share a vector)."""
        return digest(self.embed_text)


class StoredChunk(BaseModel):
    """A chunk as the store keeps it (with its source and document hash)."""

    id: str
    source: str
    source_kind: str
    path: str
    start_line: int
    end_line: int
    text: str
    symbol: str = ""
    signature: str = ""
    kind: str = "section"
    language: str = ""
    url: str = ""
    doc_hash: str = ""
    text_hash: str = ""

    @classmethod
    def of(cls, source: str, source_kind: str, doc_hash: str, chunk: Chunk) -> StoredChunk:
        text_hash = chunk.text_hash
        key = f"{source}\0{chunk.path}\0{chunk.start_line}\0{chunk.end_line}\0{text_hash}"
        return cls(
            id=digest(key)[:32],
            source=source,
            source_kind=source_kind,
            path=chunk.path,
            start_line=chunk.start_line,
            end_line=chunk.end_line,
            text=chunk.text,
            symbol=chunk.symbol,
            signature=chunk.signature,
            kind=chunk.kind,
            language=chunk.language,
            url=chunk.url,
            doc_hash=doc_hash,
            text_hash=text_hash,
        )

    @property
    def lines(self) -> str:
        return f"{self.start_line}-{self.end_line}"

    @property
    def citation(self) -> str:
        """``source:path:start-end``: how a person finds it again."""
        return f"{self.source}:{self.path}:{self.lines}"


@dataclass(frozen=True)
class Query:
    """One search.

    Attributes:
        text: The query text (for full-text search and the embedding).
        vector: Its embedding (needed unless ``mode`` is ``fts``).
        k: How many hits.
        mode: Hybrid, vector-only or full-text-only.
        sources: Only these sources (empty: all).
        kinds: Only these source kinds (empty: all).
    """

    text: str
    vector: list[float] | None = None
    k: int = 5
    mode: SearchMode = "hybrid"
    sources: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    chunk_kinds: tuple[str, ...] = field(default=())
    """Only these chunk kinds (``function``, ``section``...; empty: all)."""


class Hit(BaseModel):
    """A search result: the chunk and its score (higher is better)."""

    chunk: StoredChunk
    score: float

    def snippet(self, limit: int = 240) -> str:
        """The first lines of the chunk, at most ``limit`` characters."""
        text = self.chunk.text.strip()
        return text if len(text) <= limit else text[:limit].rstrip() + " …"


class SourceEntry(BaseModel):
    """A registered source of the index (``codeproof index add``)."""

    name: str = Field(min_length=1)
    kind: SourceKind
    path: str
    added_at: str = ""
    updated_at: str = ""
    documents: int = 0
    chunks: int = 0
