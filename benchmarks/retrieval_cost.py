"""Retrieval cost: index build time and size per 1,000 chunks; query p50/p95 at 10K and
100K chunks.

Build: a real corpus (an installed package's source from this virtualenv, default
``rich``) indexed from scratch with the MiniLM int8 embedder and the LanceDB store, then
indexed again with nothing changed. Queries: LanceDB stores filled with 10K and 100K
chunks (texts drawn from that corpus, random unit vectors: the embedding cost is
measured apart, per query), 100 queries per mode; from 50K rows the store builds an
approximate vector index (IVF_HNSW_SQ). Sizes are after dropping old table versions.
Prints, never asserts.

    .venv/bin/python benchmarks/retrieval_cost.py [--package rich] [--sizes 10000 100000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import sysconfig
import tempfile
import time
import warnings
from datetime import timedelta
from pathlib import Path

from codeproof.retrieval.chunking import chunk
from codeproof.retrieval.embedders.minilm import DIMENSION, MiniLMEmbedder
from codeproof.retrieval.index import Index
from codeproof.retrieval.models import SEARCH_MODES, Chunk, Query, StoredChunk
from codeproof.retrieval.sources import Limits, documents
from codeproof.retrieval.stores.lance import LanceStore

QUERIES = 100
BATCH = 5000


def build(package: Path) -> list[Chunk]:
    with tempfile.TemporaryDirectory() as tmp:
        index = Index(Path(tmp), "lancedb", MiniLMEmbedder(), Limits())
        started = time.perf_counter()
        stats = index.add(package, kind="code", name="corpus")
        cold = time.perf_counter() - started
        started = time.perf_counter()
        (again,) = index.update()
        warm = time.perf_counter() - started
        store = index.store()
        assert isinstance(store, LanceStore)
        compact_all(store)
        size = store.size_bytes()
        index.close()
    per = 1000 / stats.chunks
    print(f"build: {stats.documents} files, {stats.chunks} chunks in {cold:.1f} s "
          f"-> {cold * per:.1f} s and {size * per / 1e6:.2f} MB per 1,000 chunks; "
          f"re-run with nothing changed: {warm:.2f} s, {again.embedded} embedded")  # fmt: skip
    return [c for d in documents("code", package, Limits()) for c in chunk(d)]


def unit(rng: random.Random) -> list[float]:
    v = [rng.gauss(0, 1) for _ in range(DIMENSION)]
    n = sum(x * x for x in v) ** 0.5
    return [x / n for x in v]


def fill(store: LanceStore, corpus: list[Chunk], n: int, rng: random.Random) -> None:
    for start in range(0, n, BATCH):
        rows = []
        for i in range(start, min(n, start + BATCH)):
            base = corpus[i % len(corpus)]
            text = f"{base.text}\n# variant {i}"
            c = Chunk(f"f{i // 50}.py", i, i + 5, text, symbol=base.symbol, kind=base.kind)
            rows.append(StoredChunk.of("s", "code", "h", c))
        paths = {r.path for r in rows}
        store.replace("s", paths, rows, [unit(rng) for _ in rows])
    compact_all(store)


def compact_all(store: LanceStore) -> None:
    """Compact and drop every old version (nothing else reads this store)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        store.compact(keep=timedelta(0))


def latency(store: LanceStore, texts: list[str], mode: str, rng: random.Random) -> list[float]:
    out = []
    for text in texts:
        query = Query(text=text, vector=unit(rng), k=5, mode=mode)  # type: ignore[arg-type]
        started = time.perf_counter()
        store.search(query)
        out.append((time.perf_counter() - started) * 1000)
    return out


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--package", default="rich")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    args = parser.parse_args()
    package = Path(sysconfig.get_paths()["purelib"]) / args.package
    if not package.is_dir():
        sys.exit(f"{package} is not installed here")
    corpus = build(package)
    rng = random.Random(7)
    words = [w for c in corpus for w in c.symbol.replace(".", " ").split() if len(w) > 3]
    texts = [" ".join(rng.sample(words, 3)) for _ in range(QUERIES)]
    embedder = MiniLMEmbedder()
    embedder.embed(["warm up"])
    embed_ms = []
    for text in texts[:50]:
        started = time.perf_counter()
        embedder.embed([text])
        embed_ms.append((time.perf_counter() - started) * 1000)
    print(f"query embedding: p50 {pct(embed_ms, 50):.1f} ms, p95 {pct(embed_ms, 95):.1f} ms")
    print(f"{'chunks':>8} {'fill s':>7} {'MB':>7} " + " ".join(
        f"{m + ' p50':>11} {m + ' p95':>11}" for m in SEARCH_MODES))  # fmt: skip
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            store = LanceStore(Path(tmp) / "db", DIMENSION)
            started = time.perf_counter()
            fill(store, corpus, size, rng)
            filled = time.perf_counter() - started
            cells = []
            for mode in SEARCH_MODES:
                latency(store, texts[:5], mode, rng)  # warm the caches
                ms = latency(store, texts, mode, rng)
                cells.append(f"{pct(ms, 50):9.1f}ms {pct(ms, 95):9.1f}ms")
            print(f"{size:8} {filled:7.1f} {store.size_bytes() / 1e6:7.1f} " + " ".join(cells))
            store.close()


if __name__ == "__main__":
    main()
