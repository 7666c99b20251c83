"""Conformance suite of the RunQueue seam: the in-process worker pool and the inline
double behave the same for what callers rely on."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable

import pytest

from codeproof.server.queue import InlineQueue, InProcessQueue, RunQueue

Make = Callable[[Callable[[str], None], int], RunQueue]
QUEUES: dict[str, Make] = {
    "in-process": InProcessQueue,
    "inline": lambda execute, workers: InlineQueue(execute),
}


def settle(seen: Counter[str], n: int) -> None:
    deadline = time.monotonic() + 10
    while sum(seen.values()) < n and time.monotonic() < deadline:
        time.sleep(0.01)


@pytest.mark.parametrize("name", QUEUES)
def test_every_submitted_run_executes_once(name):
    seen: Counter[str] = Counter()
    lock = threading.Lock()

    def execute(run_id: str) -> None:
        with lock:
            seen[run_id] += 1

    queue = QUEUES[name](execute, 3)
    queue.start()
    for i in range(20):
        queue.submit(f"r{i}")
    settle(seen, 20)
    assert queue.stop(5) is True
    assert seen == Counter({f"r{i}": 1 for i in range(20)})
    assert queue.stopping


@pytest.mark.parametrize("name", QUEUES)
def test_nothing_executes_after_stop(name):
    seen: Counter[str] = Counter()
    queue = QUEUES[name](lambda run_id: seen.update([run_id]), 2)
    queue.start()
    queue.stop(5)
    queue.submit("late")
    time.sleep(0.1)
    assert seen == Counter()


@pytest.mark.parametrize("name", QUEUES)
def test_a_failing_run_does_not_stop_the_queue(name):
    seen: list[str] = []

    def execute(run_id: str) -> None:
        seen.append(run_id)
        if run_id == "bad":
            raise RuntimeError("boom")

    queue = QUEUES[name](execute, 1)
    queue.start()
    for run_id in ("bad", "good"):
        try:
            queue.submit(run_id)
        except RuntimeError:
            assert name == "inline"  # the double runs in the caller: it sees the error
    deadline = time.monotonic() + 5
    while "good" not in seen and time.monotonic() < deadline:
        time.sleep(0.01)
    queue.stop(5)
    assert seen == ["bad", "good"]


def test_the_pool_runs_at_most_its_workers_at_once_and_collapses_duplicates():
    running, peak = 0, 0
    lock = threading.Lock()
    release = threading.Event()
    seen: Counter[str] = Counter()

    def execute(run_id: str) -> None:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
            seen[run_id] += 1
        release.wait(5)
        with lock:
            running -= 1

    queue = InProcessQueue(execute, 2)
    queue.start()
    for i in range(6):
        queue.submit(f"r{i}")
        queue.submit(f"r{i}")  # again while queued: runs once
    time.sleep(0.2)
    assert peak == 2
    release.set()
    settle(seen, 6)
    queue.stop(5)
    assert peak == 2 and seen == Counter({f"r{i}": 1 for i in range(6)})
