"""The incremental indexer and the index: catalog, updates, removal, search, errors."""

from __future__ import annotations

import fcntl
from pathlib import Path

import pytest
from retrieval_doubles import FIXTURES, FailingEmbedder, WordsEmbedder

from codeproof.core.errors import ConfigError, InputError
from codeproof.retrieval.index import LOCK, Index
from codeproof.retrieval.sources import Limits


def test_add_indexes_a_project_and_search_cites_it(index: Index, project: Path) -> None:
    stats = index.add(project, name="tide")
    assert stats.documents == 5 and stats.changed == 5 and stats.embedded == stats.chunks > 10
    (entry,) = index.sources()
    assert (entry.name, entry.kind, entry.documents) == ("tide", "code", 5)
    assert entry.chunks == stats.chunks
    hit = index.search("pools where a creature was seen", k=3)[0]
    assert hit.chunk.citation == "tide:tidepool/ledger.py:35-41"
    assert hit.chunk.symbol == "Ledger.pools_with"


def test_a_rerun_with_nothing_changed_embeds_nothing(
    index: Index, project: Path, words: WordsEmbedder
) -> None:
    index.add(project, name="tide")
    before = len(words.texts)
    (stats,) = index.update()
    assert (stats.changed, stats.chunks, stats.embedded) == (0, 0, 0)
    assert len(words.texts) == before


def test_a_changed_file_embeds_only_its_new_texts(
    index: Index, project: Path, words: WordsEmbedder
) -> None:
    index.add(project, name="tide")
    salinity = project / "tidepool" / "salinity.py"
    salinity.write_text(
        salinity.read_text() + "\n\ndef fresh(psu: float) -> bool:\n    return psu < 0.5\n"
    )
    words.texts.clear()
    (stats,) = index.update(["tide"])
    assert stats.changed == 1
    # the new function and the module overview are new texts; brackish and mean_psu
    # moved nowhere and keep their vectors
    assert stats.embedded == 2 and stats.reused == 2
    assert {t.split("\n")[0] for t in words.texts} == {
        "tidepool/salinity.py: fresh", "tidepool/salinity.py: salinity"
    }  # fmt: skip
    hit = index.search("fresh water reading", k=1, mode="fts", chunk_kinds=["function"])[0]
    assert (hit.chunk.symbol, hit.chunk.start_line) == ("fresh", 16)


def test_a_deleted_file_loses_its_chunks(index: Index, project: Path) -> None:
    index.add(project, name="tide")
    (project / "tidepool" / "salinity.py").unlink()
    (stats,) = index.update()
    assert stats.removed == 1
    hits = index.search("brackish salinity", k=10, mode="fts")
    assert all(h.chunk.path != "tidepool/salinity.py" for h in hits)


def test_all_six_kinds_in_one_index(index: Index, project: Path, tmp_path: Path) -> None:
    index.add(project, name="tide")
    index.add(FIXTURES / "docs", name="manual")
    index.add(FIXTURES / "qa", name="qa")
    index.add(FIXTURES / "issues", name="issues")
    assert [(s.name, s.kind) for s in index.sources()] == [
        ("tide", "code"), ("manual", "docs"), ("qa", "qa"), ("issues", "issues")
    ]  # fmt: skip
    qa = index.search("count crabs total", k=1, kinds=["qa"])[0]
    assert qa.chunk.path == "Posts.xml#1" and qa.chunk.kind == "qa"
    issue = index.search("zero counts refused", k=1, sources=["issues"])[0]
    assert issue.chunk.url.endswith("/issues/12")


def test_remove_deletes_a_source_and_its_chunks(index: Index, project: Path) -> None:
    index.add(project, name="tide")
    index.add(FIXTURES / "docs", name="manual")
    assert index.remove("tide") > 0
    assert [s.name for s in index.sources()] == ["manual"]
    assert {h.chunk.source for h in index.search("ledger tally", k=10)} == {"manual"}


def test_bad_names_and_unknown_sources_are_input_errors(index: Index, project: Path) -> None:
    with pytest.raises(InputError, match="invalid source name"):
        index.add(project, name="../up")
    index.add(project, name="tide")
    with pytest.raises(InputError, match="exists already"):
        index.add(FIXTURES / "docs", name="tide")
    with pytest.raises(InputError, match="no source named nope"):
        index.update(["nope"])
    with pytest.raises(InputError, match="no source named nope"):
        index.search("x", sources=["nope"])
    with pytest.raises(InputError, match="query is empty"):
        index.search("  ")


def test_an_index_built_by_another_embedder_is_refused(tmp_path: Path, project: Path) -> None:
    Index(tmp_path / "i", "lancedb", WordsEmbedder(name="a"), Limits()).add(project)
    other = Index(tmp_path / "i", "lancedb", WordsEmbedder(name="b"), Limits())
    with pytest.raises(ConfigError, match="built with the embedder 'a', not 'b'"):
        other.search("ledger")
    with pytest.raises(ConfigError):
        other.update()
    assert other.search("ledger", mode="fts")  # full text needs no embedder


def test_a_failed_add_leaves_nothing_behind(tmp_path: Path, project: Path) -> None:
    (project / "more.py").write_text(
        "\n".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(300))
    )
    failing = Index(tmp_path / "i", "lancedb", FailingEmbedder(after=2), Limits())
    with pytest.raises(RuntimeError, match="fell over"):
        failing.add(project, name="tide")
    assert failing.sources() == []
    assert failing.store().count() == 0


def test_a_second_writer_is_refused(index: Index, project: Path) -> None:
    index.directory.mkdir(parents=True)
    with (index.directory / LOCK).open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(InputError, match="being written by another process"):
            index.add(project)


def test_a_corrupt_catalog_is_a_clear_error(index: Index) -> None:
    from codeproof.core.errors import RetrievalError

    index.directory.mkdir(parents=True)
    (index.directory / "index.json").write_text("{not json")
    with pytest.raises(RetrievalError, match="cannot read the index catalog"):
        index.sources()


def test_an_empty_index_finds_nothing(index: Index) -> None:
    assert not index.exists()
    assert index.search("anything") == []
