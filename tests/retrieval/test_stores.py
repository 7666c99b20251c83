"""Both store implementations pass the conformance suite."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_conformance import DIM, StoreConformance, StoreMaker, put, query

from codeproof.retrieval.store import STORES, open_store
from codeproof.retrieval.stores.lance import LanceStore
from codeproof.retrieval.stores.memory import MemoryStore


class TestMemoryStore(StoreConformance):
    @pytest.fixture
    def make(self) -> StoreMaker:
        return MemoryStore


class TestLanceStore(StoreConformance):
    @pytest.fixture
    def make(self, tmp_path: Path) -> StoreMaker:
        return lambda dim: LanceStore(tmp_path / "db", dim)


def test_lance_store_keeps_its_chunks_across_processes(tmp_path: Path) -> None:
    first = LanceStore(tmp_path / "db", DIM)
    put(first, "lib", "a.py", "alpha beta gamma")
    first.close()
    again = LanceStore(tmp_path / "db", DIM)
    assert again.count() == 1
    assert again.search(query("gamma", "fts"))[0].chunk.path == "a.py"
    assert again.size_bytes() > 0


def test_lance_store_refuses_another_dimension(tmp_path: Path) -> None:
    put(LanceStore(tmp_path / "db", DIM), "lib", "a.py", "alpha")
    with pytest.raises(ValueError, match=f"holds vectors of {DIM} dimensions, not 8"):
        LanceStore(tmp_path / "db", 8).count()


def test_constructing_a_lance_store_touches_nothing(tmp_path: Path) -> None:
    LanceStore(tmp_path / "db", DIM)
    assert not (tmp_path / "db").exists()


def test_stores_are_chosen_by_name(tmp_path: Path) -> None:
    assert set(STORES) == {"lancedb", "memory"}
    assert isinstance(open_store("memory", tmp_path, 4), MemoryStore)
    assert isinstance(open_store("lancedb", tmp_path, 4), LanceStore)
    from codeproof.core.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown retrieval store 'pgvector'"):
        open_store("pgvector", tmp_path, 4)
