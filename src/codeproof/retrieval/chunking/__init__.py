"""Chunkers by document format, chosen from :data:`CHUNKERS` (never by if/elif).

Code by symbol (tree-sitter), documentation by heading, a Q&A by question with its
accepted answer, an issue by its title, body and comments.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from codeproof.languages import registry
from codeproof.retrieval.chunking.code import chunk_code, window_chunks
from codeproof.retrieval.chunking.markup import (
    Section,
    chunk_html,
    chunk_markdown,
    chunk_text,
    section_chunks,
)
from codeproof.retrieval.models import Chunk, Document

Chunker = Callable[[Document], list[Chunk]]


def _record(kind: str) -> Chunker:
    """One record (a question, an issue): one chunk, or parts of a long one."""

    def chunk(doc: Document) -> list[Chunk]:
        section = Section(1, doc.title, 1, doc.text.splitlines())
        return [replace(c, kind=kind) for c in section_chunks(doc, [section])]

    return chunk


CHUNKERS: dict[str, Chunker] = {
    **{lang.name: chunk_code for lang in registry.languages() if lang.chunking is not None},
    "markdown": chunk_markdown,
    "html": chunk_html,
    "text": chunk_text,
    "qa": _record("qa"),
    "issue": _record("issue"),
}
"""Document format -> chunker (a language with a ``chunking``: by symbol). Other code
formats are cut into windows of lines."""


def chunk(doc: Document) -> list[Chunk]:
    """The chunks of ``doc`` by its format."""
    chunker = CHUNKERS.get(doc.format)
    if chunker is None:
        return window_chunks(doc, kind="module")
    return chunker(doc)
