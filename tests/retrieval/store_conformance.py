"""The conformance suite of :class:`codeproof.retrieval.store.Store`.

Every store implementation runs these tests (see ``test_stores.py``): a server store
(pgvector) added later gets the same suite by adding one factory.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from retrieval_doubles import WordsEmbedder

from codeproof.retrieval.models import Chunk, Query, StoredChunk
from codeproof.retrieval.store import Store

StoreMaker = Callable[[int], Store]
DIM = 64
EMB = WordsEmbedder(DIM)


def stored(source: str, path: str, text: str, *, line: int = 1, kind: str = "code") -> StoredChunk:
    chunk = Chunk(path=path, start_line=line, end_line=line + 2, text=text, symbol=text.split()[0])
    return StoredChunk.of(source, kind, f"hash-of-{path}-{text[:10]}", chunk)


def put(store: Store, source: str, path: str, *texts: str, kind: str = "code") -> None:
    chunks = [stored(source, path, t, line=1 + 10 * i, kind=kind) for i, t in enumerate(texts)]
    store.replace(source, [path], chunks, EMB.embed([c.text for c in chunks]))


def query(text: str, mode: str = "hybrid", **kw: object) -> Query:
    return Query(text=text, vector=EMB.embed([text])[0], mode=mode, **kw)  # type: ignore[arg-type]


CORPUS = {
    "geo.py": ["haversine distance between two points on a sphere", "bearing angle from north"],
    "text.py": ["slugify lowercase text with hyphens", "word count of a sentence"],
    "dates.py": ["parse iso date string into weekday name"],
}


class StoreConformance:
    """Subclass with a ``make`` fixture returning a fresh store of a given dimension."""

    @pytest.fixture
    def filled(self, make: StoreMaker) -> Store:
        store = make(DIM)
        for path, texts in CORPUS.items():
            put(store, "lib", path, *texts)
        put(store, "manual", "guide.md", "distance guide: how to measure distance", kind="docs")
        return store

    def test_empty_store_finds_nothing_and_counts_zero(self, make: StoreMaker) -> None:
        store = make(DIM)
        assert store.count() == 0
        assert store.documents("lib") == {}
        assert store.search(query("distance")) == []

    @pytest.mark.parametrize("mode", ["hybrid", "vector", "fts"])
    def test_each_mode_ranks_the_matching_chunk_first(self, filled: Store, mode: str) -> None:
        hits = filled.search(query("slugify lowercase hyphens", mode, k=3))
        assert hits, mode
        assert hits[0].chunk.path == "text.py"
        assert hits[0].chunk.text.startswith("slugify")
        assert all(a.score >= b.score for a, b in itertools.pairwise(hits))

    def test_k_limits_the_hits(self, filled: Store) -> None:
        assert len(filled.search(query("distance text date", "vector", k=2))) == 2

    def test_filters_by_source_and_kind(self, filled: Store) -> None:
        docs = filled.search(query("distance", sources=("manual",), k=5))
        assert {h.chunk.source for h in docs} == {"manual"}
        code = filled.search(query("distance", kinds=("code",), k=5))
        assert code and {h.chunk.source_kind for h in code} == {"code"}

    def test_documents_lists_each_path_with_its_hash(self, filled: Store) -> None:
        docs = filled.documents("lib")
        assert set(docs) == set(CORPUS)
        assert docs["dates.py"].startswith("hash-of-dates.py")

    def test_replace_swaps_a_documents_chunks(self, filled: Store) -> None:
        put(filled, "lib", "geo.py", "great circle route planner")
        assert filled.count("lib") == 4  # geo.py had 2 chunks, now 1
        texts = {h.chunk.text for h in filled.search(query("great circle", "fts", k=10))}
        assert "great circle route planner" in texts
        gone = filled.search(query("bearing angle north", "fts", k=10))
        assert all(h.chunk.path != "geo.py" for h in gone)

    def test_replace_with_no_chunks_deletes_the_document(self, filled: Store) -> None:
        filled.replace("lib", ["text.py"], [], [])
        assert "text.py" not in filled.documents("lib")
        assert filled.count("lib") == 3

    def test_replace_leaves_other_sources_alone(self, filled: Store) -> None:
        put(filled, "other", "geo.py", "unrelated text")
        filled.replace("other", ["geo.py"], [], [])
        assert filled.count("lib") == 5
        assert filled.count("other") == 0

    def test_vectors_are_returned_by_text_hash(self, filled: Store) -> None:
        chunk = stored("lib", "dates.py", CORPUS["dates.py"][0])
        found = filled.vectors("lib", [chunk.text_hash, "unknown"])
        assert list(found) == [chunk.text_hash]
        assert found[chunk.text_hash] == pytest.approx(EMB.embed([chunk.text])[0], abs=1e-6)

    def test_drop_source_deletes_only_that_source(self, filled: Store) -> None:
        assert filled.drop_source("manual") == 1
        assert filled.count() == 5
        assert filled.drop_source("manual") == 0

    def test_hits_carry_the_stored_chunk(self, filled: Store) -> None:
        (hit,) = filled.search(query("parse iso date weekday", k=1))
        c = hit.chunk
        assert (c.source, c.path, c.start_line, c.end_line) == ("lib", "dates.py", 1, 3)
        assert c.citation == "lib:dates.py:1-3"

    def test_mismatched_arguments_are_refused(self, make: StoreMaker) -> None:
        store = make(DIM)
        chunk = stored("lib", "a.py", "alpha beta")
        with pytest.raises(ValueError, match="1 chunks but 0 vectors"):
            store.replace("lib", ["a.py"], [chunk], [])
        with pytest.raises(ValueError, match="of source 'lib' given for source 'x'"):
            store.replace("x", ["a.py"], [chunk], EMB.embed(["alpha"]))
        with pytest.raises(ValueError, match="dimensions"):
            store.replace("lib", ["a.py"], [chunk], [[1.0, 0.0]])
        assert store.count() == 0

    def test_vector_search_needs_a_vector(self, filled: Store) -> None:
        with pytest.raises(ValueError, match="needs a query vector"):
            filled.search(Query(text="distance", mode="vector"))
        assert filled.search(Query(text="distance", mode="fts"))  # full text needs none

    def test_compact_keeps_what_search_finds(self, filled: Store) -> None:
        before = [h.chunk.id for h in filled.search(query("distance date", k=4))]
        filled.compact()
        put(filled, "lib", "late.py", "zebra crossing written after compaction")
        assert [h.chunk.id for h in filled.search(query("distance date", k=4))] == before
        assert filled.search(query("zebra", "fts", k=1))[0].chunk.path == "late.py"

    def test_quotes_in_paths_and_queries_are_data(self, make: StoreMaker) -> None:
        store = make(DIM)
        put(store, "lib", "it's.py", "o'clock timer")
        assert store.documents("lib") == {"it's.py": store.documents("lib")["it's.py"]}
        assert store.search(query("o'clock", k=1))[0].chunk.path == "it's.py"
        store.replace("lib", ["it's.py"], [], [])
        assert store.count() == 0
