"""Cost of reading code with the syntax facade, on the stored model outputs of a run.

Prints (never asserts), per language, the median wall time per file of: the tree-sitter
parse alone, and parse + each reader the choice and clean-up steps use (calls, tests,
assertions, declarations), over the test files and final modules of a results file:

    .venv/bin/python benchmarks/syntax_readers.py \
        benchmarks/results/2026-11-30/js-40-pipe/results.jsonl --repeat 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from codeproof.languages.syntax import Tree, parse

READERS: dict[str, Callable[[Tree], object]] = {
    "parse": lambda tree: None,
    "calls": lambda tree: tree.calls(),
    "tests": lambda tree: tree.tests(),
    "assertions": lambda tree: tree.assertions(),
    "declarations": lambda tree: tree.declarations(),
}


def _sources(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        files = [record.get("final_code") or "", *(record.get("designed_tests") or {}).values()]
        out.setdefault(record["language"], []).extend(f for f in files if f)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("results", type=Path, help="a run's results.jsonl")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for language, sources in _sources(args.results).items():
        parse(language, "")  # the grammar's first load is not a file's cost
        chars = sum(len(s) for s in sources)
        print(f"{language}: {len(sources)} files, {chars} characters")
        for name, read in READERS.items():
            times = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                for source in sources:
                    read(parse(language, source))
                times.append((time.perf_counter() - start) / len(sources))
            print(f"  {name:<13} {statistics.median(times) * 1000:7.2f} ms per file")


if __name__ == "__main__":
    main()
