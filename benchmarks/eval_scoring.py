"""Hidden-test scoring throughput of ``codeproof eval``, per built-in dataset.

Prints (never asserts) the wall time of scoring every canonical solution of each
dataset in one sandbox session (one batch), and the time per task.

    .venv/bin/python benchmarks/eval_scoring.py [--limit N] [--backend docker]
"""

from __future__ import annotations

import argparse
import time

from codeproof.core.config import load_settings
from codeproof.evaluation.datasets import BUILTIN_DATASETS, load_dataset, sample_tasks
from codeproof.evaluation.extract import assemble
from codeproof.evaluation.scoring import Scorer
from codeproof.sandbox.registry import limits_from_settings, open_session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=None, help="tasks per dataset")
    parser.add_argument("--backend", default=None, help="sandbox backend (default: config)")
    args = parser.parse_args()
    settings = load_settings()
    print(f"{'dataset':18} {'tasks':>5} {'passed':>6} {'wall s':>7} {'s/task':>7}")
    for name in BUILTIN_DATASETS:
        tasks = sample_tasks(load_dataset(name), args.limit, 0)
        items = [(t, assemble(t, t.canonical_solution or "")) for t in tasks]
        with Scorer(
            lambda lang, limits: open_session(settings, lang, limits, backend=args.backend),
            timeout_s=settings.evaluation.task_timeout_s,
            limits=limits_from_settings(settings),
        ) as scorer:
            started = time.perf_counter()
            scores = scorer.score(items)
            wall = time.perf_counter() - started
        passed = sum(s.passed for s in scores)
        print(f"{name:18} {len(tasks):5} {passed:6} {wall:7.1f} {wall / len(tasks):7.3f}")


if __name__ == "__main__":
    main()
