"""What the workflow engine itself costs: graph, checkpoints, audit trail and replay.

A scripted model answers instantly and a stub toolchain passes every test, so the
time measured is LangGraph + SQLite checkpoints + the audit trail, per module. The time per
module includes the security scan (a bandit process) and writing the project.
Finally the replay of a recorded LLM call (what a resumed run pays instead) is timed.

    .venv/bin/python benchmarks/workflow_overhead.py [--modules 5] [--runs 3]
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from codeproof.core.config import load_settings
from codeproof.core.types import Module, Spec, TestCase, TestReport
from codeproof.llm.base import Message
from codeproof.llm.fake import FakeModel
from codeproof.workflow.deps import RunOptions, ToolchainLike
from codeproof.workflow.humans import AutoHuman
from codeproof.workflow.recording import RecordingModel
from codeproof.workflow.runner import Runner
from codeproof.workflow.store import RunStore


class PassingToolchain:
    """Every test passes; no sandbox."""

    def __init__(self) -> None:
        self.calls: list[Any] = []

    def run_tests(
        self, files: dict[str, str], tests: dict[str, str], timeout_s: float | None = None
    ) -> TestReport:
        return TestReport(total=1, passed=1, tests=[TestCase(name="t", outcome="passed")])

    def conventions(self) -> str:
        return "one file per module"

    def close(self) -> None:
        return None


def scripted_model(n_modules: int) -> FakeModel:
    modules = [
        Module(name=f"m{i}", purpose="p", language="python", public_interface=f"f{i}()")
        for i in range(n_modules)
    ]
    spec = Spec(title="t", summary="s", language="python")

    def starts(prefix: str) -> Any:
        return lambda m: m[0].content.startswith(prefix)

    def name(messages: list[Message]) -> str:
        found = re.search(r"Module `(\w+)`", messages[1].content)
        return found.group(1) if found else "m"

    def code(messages: list[Message]) -> str:
        return f"File: {name(messages)}.py\n```python\ndef f():\n    return 1\n```\n"

    def tests(messages: list[Message]) -> str:
        n = name(messages)
        return f"File: test_{n}.py\n```python\ndef test_f():\n    assert True\n```\n"

    return FakeModel(
        rules=[
            (starts("You are a requirements analyst"), {"reply": "ok", "ready": True}),
            (starts("You turn a programming request"), spec),
            (starts("You split a specification"), {"modules": [m.model_dump() for m in modules]}),
            (starts("You plan how"), {"steps": ["do it"]}),
            (starts("You write python tests"), tests),
            (starts("You are an expert python"), code),
            (starts("You write short documentation"), {"summary": "s", "items": []}),
        ]
    )


def one_run(root: Path, n_modules: int) -> tuple[float, int, int]:
    settings = load_settings()
    with RunStore(root / "runs") as store:
        runner = Runner(
            settings, store, scripted_model(n_modules), lambda lang: _toolchain(), AutoHuman()
        )
        options = RunOptions(out_dir=str(root / "out"), auto=True)
        t0 = time.perf_counter()
        result = runner.start("bench", options)
        elapsed = time.perf_counter() - t0
        events = len(store.events(result.run_id))
    return elapsed, events, (root / "runs" / "runs.sqlite3").stat().st_size


def _toolchain() -> ToolchainLike:
    return PassingToolchain()


def replay_cost(root: Path, calls: int) -> float:
    with RunStore(root / "runs") as store:
        store.create_run("replay", "r", "o", {})
        model = RecordingModel(FakeModel(rules=[(lambda m: True, "x")]), store, "replay", "s")
        messages = [Message(role="user", content=f"q{i}") for i in range(calls)]
        for m in messages:
            model.chat([m])
        again = RecordingModel(model.inner, store, "replay", "s")
        t0 = time.perf_counter()
        for m in messages:
            again.chat([m])
        return (time.perf_counter() - t0) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--modules", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    times = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            elapsed, events, size = one_run(Path(tmp), args.modules)
            times.append(elapsed)
    median = statistics.median(times)
    print(f"modules per run          {args.modules}")
    print(f"run time (median of {args.runs})  {median:.3f} s")
    print(f"engine time / module     {median / args.modules * 1000:.1f} ms")
    print(f"audit events per run     {events}")
    print(f"run store size           {size / 1024:.0f} KiB")
    with tempfile.TemporaryDirectory() as tmp:
        per_call = replay_cost(Path(tmp), 200)
    print(f"replay of a recorded call {per_call * 1000:.2f} ms")


if __name__ == "__main__":
    main()
