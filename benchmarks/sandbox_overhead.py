"""Per-run overhead of the sandbox backends on the same trivial command.

Prints (never asserts) the median wall time of one ``true`` run:

* bare ``subprocess.run`` on the host (the baseline);
* unsafe-local session ``run`` (our process plumbing without isolation);
* bubblewrap session ``run`` (fresh namespaces per run);
* docker warm ``exec`` in an open session (goal: <= 150 ms median);
* docker cold: open a session (container start), run once, close.

and each as a ratio to the bare subprocess. Backends that cannot run are skipped.

    .venv/bin/python benchmarks/sandbox_overhead.py --warm 40 --cold 8
"""

from __future__ import annotations

import argparse
import logging
import statistics
import subprocess
import time
from collections.abc import Callable

from codeproof.core.config import load_settings
from codeproof.sandbox.base import Limits
from codeproof.sandbox.registry import BACKENDS

COMMAND = ["true"]


def median_s(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn`` over ``repeat`` calls (after one warm-up call)."""
    fn()
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def warm_run(backend: str, repeat: int) -> float | None:
    """Median of ``run`` in one open session of ``backend``; None when unusable."""
    sandbox = BACKENDS[backend](load_settings())
    if not sandbox.can_serve("python"):
        return None
    with sandbox.open("python", Limits()) as session:
        return median_s(lambda: session.run(COMMAND), repeat)


def docker_cold(repeat: int) -> float | None:
    """Median of open + run + close with Docker; None without a daemon."""
    sandbox = BACKENDS["docker"](load_settings())
    if not sandbox.can_serve("python"):
        return None

    def once() -> None:
        with sandbox.open("python", Limits()) as session:
            session.run(COMMAND)

    return median_s(once, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm", type=int, default=40, help="runs per warm measurement")
    parser.add_argument("--cold", type=int, default=8, help="docker cold start samples")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # the unsafe-local warning on every run

    bare = median_s(lambda: subprocess.run(COMMAND, check=True), args.warm)
    rows: list[tuple[str, float | None]] = [
        ("bare subprocess", bare),
        ("unsafe-local run", warm_run("unsafe-local", args.warm)),
        ("bubblewrap run", warm_run("bubblewrap", args.warm)),
        ("docker warm exec", warm_run("docker", args.warm)),
        ("docker cold run", docker_cold(args.cold)),
    ]
    print(f"{'backend':<20} {'median ms':>10} {'x bare':>9}")
    for name, value in rows:
        if value is None:
            print(f"{name:<20} {'skipped':>10}")
            continue
        print(f"{name:<20} {value * 1000:>10.1f} {value / bare:>9.1f}")
    warm = dict(rows)["docker warm exec"]
    if warm is not None:
        verdict = "meets" if warm <= 0.150 else "misses"
        print(f"docker warm exec {verdict} the 150 ms goal ({warm * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
