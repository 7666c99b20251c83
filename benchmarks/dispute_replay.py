"""The proof's questions on designed checks the final code contradicts, on stored runs.

For each pipeline result whose final code is one of its stored drafts, the calls of its
designed tests that no kept test makes (:func:`codeproof.engine.disputes.vanished`) are
probed in the sandbox on the final code and on the task's reference solution (the
original HumanEval task's, for a task restated in words), and each designed check the
final code contradicts (:func:`codeproof.engine.disputes.contradicted`) is one question
a person would be asked. Prints (never asserts), per run:

* how many tasks (and green tasks) get such a question, and how many questions;
* per question, who the reference solution agrees with: the code (the choice was right
  to set the test aside), the designed test (asking catches a bug), or neither.

    .venv/bin/python benchmarks/dispute_replay.py \\
        benchmarks/results/2026-12-07/restated12-61a6a96 --out disputes.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

from codeproof.choosing.probing import probe
from codeproof.core.config import load_settings
from codeproof.engine.context import Context, EngineOptions
from codeproof.engine.disputes import contradicted, vanished
from codeproof.engine.state import Work
from codeproof.evaluation.datasets import Task, load_dataset
from codeproof.evaluation.extract import assemble
from codeproof.evaluation.pipeline import context_for, main_code
from codeproof.evaluation.results import ResultStore, TaskResult
from codeproof.toolchains.client import open_toolchain


class _NoModel:
    """Nothing here asks a model."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the dispute replay asked the model ({name})")


def _built(result: TaskResult, task: Task) -> tuple[Work, Context] | None:
    drafts, chosen = result.draft_files or [], result.chosen_draft
    if chosen is None or not 0 <= chosen < len(drafts) or not result.designed_tests:
        return None
    ctx = context_for(_NoModel(), None, task, EngineOptions())  # type: ignore[arg-type]
    files = drafts[chosen]
    if assemble(task, main_code(files, ctx.module)) != result.final_code:
        return None  # repaired: the final code is not a stored draft
    work = Work(
        files=files,
        tests=dict(result.own_tests or {}),
        designed=dict(result.designed_tests),
        examples=list(ctx.examples),
    )
    return work, ctx


def _reference(task: Task, original: dict[str, Task]) -> str | None:
    source = original.get(task.task_id.removesuffix("/restated"), task)
    if source.canonical_solution is None:
        return None
    return source.prompt + source.canonical_solution


def _row(result: TaskResult, work: Work, ctx: Context, reference: str | None) -> dict[str, object]:
    files = work.files or {}
    calls = vanished(ctx, work)
    outputs = probe(ctx.run_program, ctx.module, files, calls) if calls else None
    found, _, _ = contradicted(ctx, work, calls, outputs or [], []) if outputs else ([], [], [])
    truth: list[str] = []
    if found and reference is not None:
        path = next(iter(files))
        truth = probe(ctx.run_program, ctx.module, {path: reference}, [d.call for d in found]) or []
    verdicts = []
    for k, check in enumerate(found):
        right = truth[k] if k < len(truth) else None
        read = ctx.language.choosing.value
        same = _same(read, right, check.expected) if right is not None else None
        verdicts.append(
            "code" if right == check.agreed else "test" if same else "neither" if right else "?"
        )
    return {
        "task_id": result.task_id,
        "passed": result.passed,
        "green": bool(result.own_tests_green),
        "vanished": len(calls),
        "questions": [
            {"call": d.call, "code": d.agreed, "test": d.expected, "right": v}
            for d, v in zip(found, verdicts, strict=True)
        ],
    }


def _same(read: object, output: str, expected: str) -> bool:
    """Whether the reference's probe ``output`` is the test's ``expected`` value."""
    if output == expected:
        return True
    if read is None or output.startswith("!") or expected.startswith("!"):
        return False
    ok_a, a = read(output)  # type: ignore[operator]
    ok_b, b = read(expected)  # type: ignore[operator]
    return bool(ok_a and ok_b and a == b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", type=Path, nargs="+", help="--out directories of pipeline runs")
    parser.add_argument("--dataset", default="humaneval", help="the tasks' dataset")
    parser.add_argument("--tasks", type=Path, default=None, help="a JSONL of the tasks")
    parser.add_argument("--out", type=Path, default=None, help="per-task JSON lines")
    args = parser.parse_args()
    settings = load_settings()
    original = {
        t.task_id: t for t in load_dataset("humaneval", data_dir=settings.evaluation.data_dir)
    }
    tasks = dict(original)
    if args.tasks is not None:
        tasks |= {t.task_id: t for t in load_dataset(str(args.tasks))}
    rows = []
    with ExitStack() as stack:
        client = stack.enter_context(open_toolchain(settings, "python"))
        for run in args.runs:
            for result in ResultStore(run).load():
                task = tasks.get(result.task_id)
                built = _built(result, task) if result.mode == "pipeline" and task else None
                if built is None or task is None:
                    continue
                work, ctx = built
                ctx.toolchain = client
                rows.append(_row(result, work, ctx, _reference(task, original)))
                print(json.dumps(rows[-1]), flush=True)
    if args.out:  # written once, at the end: a replay is minutes, not hours
        args.out.write_text("".join(f"{json.dumps(row)}\n" for row in rows))
    _summary(rows)


def _summary(rows: list[dict[str, object]]) -> None:
    asked = [r for r in rows if r["questions"]]
    green = [r for r in asked if r["green"]]
    questions = [q for r in rows for q in r["questions"]]  # type: ignore[attr-defined]
    right = Counter(str(q["right"]) for q in questions)
    print(f"\n{len(rows)} task(s) replayed; {len(asked)} with a question ({len(green)} green)")
    print(f"questions: {len(questions)}; the reference agrees with: {dict(right)}")
    wrong_green = [r for r in green if not r["passed"]]
    caught = [r for r in wrong_green if any(q["right"] == "test" for q in r["questions"])]  # type: ignore[attr-defined]
    print(
        f"green but wrong with a question: {len(wrong_green)}; the test right there: {len(caught)}"
    )


if __name__ == "__main__":
    main()
