"""Retrieval quality: recall@5 and MRR of hybrid vs vector-only vs full-text-only search.

A labelled query set (``retrieval_data/queries.json``) over a made-up library with its
docs (``retrieval_data/quillwort``), indexed with distractors (codeproof's own docs, the
retrieval code, a test fixture project), real MiniLM embeddings and the LanceDB store.
A query is recalled at 5 when one of its relevant chunks (``path::symbol`` of the
library) is among the top 5; MRR uses the rank of the first relevant chunk (0 past 10).
Prints, never asserts.

    .venv/bin/python benchmarks/retrieval_quality.py
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from codeproof.retrieval.embedders.minilm import MiniLMEmbedder
from codeproof.retrieval.index import Index
from codeproof.retrieval.models import SEARCH_MODES
from codeproof.retrieval.sources import Limits

DATA = Path(__file__).parent / "retrieval_data"
DEPTH = 10


def main() -> None:
    argparse.ArgumentParser(description=__doc__).parse_args()
    spec = json.loads((DATA / "queries.json").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        index = Index(Path(tmp), "lancedb", MiniLMEmbedder(), Limits())
        started = time.perf_counter()
        for name in spec["corpus"]:
            index.add(DATA / name, kind="code", name=name)
        for n, rel in enumerate(spec["distractors"]):
            index.add((DATA / rel).resolve(), kind="code", name=f"distractor{n}")
        chunks = sum(s.chunks for s in index.sources())
        print(f"indexed {chunks} chunks in {time.perf_counter() - started:.1f} s; "
              f"{len(spec['queries'])} queries")  # fmt: skip
        print(f"{'mode':8} {'recall@1':>8} {'recall@5':>8} {'MRR@10':>7}")
        for mode in SEARCH_MODES:
            ranks = [rank(index, q["q"], set(q["relevant"]), mode) for q in spec["queries"]]
            n = len(ranks)
            r1 = sum(1 for r in ranks if r == 1) / n
            r5 = sum(1 for r in ranks if 0 < r <= 5) / n
            mrr = sum(1 / r for r in ranks if r) / n
            print(f"{mode:8} {r1:8.3f} {r5:8.3f} {mrr:7.3f}")
        index.close()


def rank(index: Index, query: str, relevant: set[str], mode: str) -> int:
    """1-based rank of the first relevant hit (0: not in the top DEPTH)."""
    hits = index.search(query, k=DEPTH, mode=mode)  # type: ignore[arg-type]
    for n, hit in enumerate(hits, start=1):
        c = hit.chunk
        if c.source == "quillwort" and f"{c.path}::{c.symbol}" in relevant:
            return n
    return 0


if __name__ == "__main__":
    main()
