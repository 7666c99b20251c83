"""The proof on a stored pipeline run, without a model: its cost and the green it allows.

For each pipeline result whose final code is one of its stored drafts (no repair), the
proof (:func:`codeproof.engine.proving.prove`) runs on that code, its kept tests, its
drafts and its proposed inputs in the sandbox; no drafts are drawn (no model), so the
questions come from the stored drafts only. Prints (never asserts), per language:

* the proof's wall time per task (median, 90th percentile) and its sandbox runs;
* the mutation score of the kept tests (median) and the strengths;
* green precision and recall (against the hidden tests) of "own tests pass" as stored,
  and of "own tests pass on a moderately strong proof";
* how many tasks get a question whose default answer the chosen code does not give
  (``codeproof new --yes`` and the evaluation would then choose again).

    .venv/bin/python benchmarks/proof_replay.py \\
        benchmarks/results/2026-11-30/he-164-pipe --limit 40 --budget 60 --out replay.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from contextlib import ExitStack
from pathlib import Path

from codeproof.core.config import load_settings
from codeproof.core.proof import Proof
from codeproof.engine.context import EngineOptions
from codeproof.engine.proving import prove
from codeproof.engine.state import Draft, Work
from codeproof.evaluation.datasets import Task, load_dataset
from codeproof.evaluation.extract import assemble
from codeproof.evaluation.pipeline import context_for, main_code
from codeproof.evaluation.results import ResultStore, TaskResult, load_run_info
from codeproof.toolchains.client import open_toolchain


class _NoModel:
    """The proof must not ask a model here (``proof_drafts=1``)."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the proof replay asked the model ({name})")


def _work(result: TaskResult, task: Task, options: EngineOptions) -> tuple[Work, object] | None:
    drafts = result.draft_files or []
    chosen = result.chosen_draft
    if chosen is None or not 0 <= chosen < len(drafts) or not result.own_tests:
        return None
    ctx = context_for(_NoModel(), None, task, options)  # type: ignore[arg-type]
    files = drafts[chosen]
    if assemble(task, main_code(files, ctx.module)) != result.final_code:
        return None  # repaired: the final code is not a stored draft
    work = Work(
        files=files,
        tests=dict(result.own_tests),
        verdict="passed" if result.tests_green or result.own_tests_green else "failed",
        examples=list(ctx.examples),
        inputs=list(result.probe_inputs or []),
        drafts=[Draft(files=d, source="direct", index=i) for i, d in enumerate(drafts)],
    )
    return work, ctx


def _flips(proof: Proof) -> bool:
    """A question whose default answer the chosen code does not give."""
    return any(q.default != next(c.value for c in q.choices if c.chosen) for q in proof.questions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run", type=Path, help="the --out directory of a pipeline run")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--budget", type=float, default=60.0, help="proof.budget_s")
    parser.add_argument("--mutants", type=int, default=40, help="proof.mutants")
    parser.add_argument("--out", type=Path, default=None, help="per-task JSON lines")
    args = parser.parse_args()
    settings = load_settings()
    info = load_run_info(args.run)
    tasks = {
        t.task_id: t for t in load_dataset(info.dataset, data_dir=settings.evaluation.data_dir)
    }
    results = [r for r in ResultStore(args.run).load() if r.mode == "pipeline"]
    options = EngineOptions(proof_drafts=1, proof_budget_s=args.budget, mutants=args.mutants)
    rows = []
    with ExitStack() as stack:
        clients: dict[str, object] = {}
        for result in results[: args.limit]:
            task = tasks.get(result.task_id)
            built = _work(result, task, options) if task is not None else None
            if built is None:
                continue
            work, ctx = built
            language = task.language  # type: ignore[union-attr]
            if language not in clients:
                clients[language] = stack.enter_context(open_toolchain(settings, language))
            ctx.toolchain = clients[language]  # type: ignore[attr-defined]
            calls_before = len(clients[language].calls)  # type: ignore[attr-defined]
            started = time.perf_counter()
            proven = prove(ctx, work)  # type: ignore[arg-type]
            proof = proven.proof
            assert proof is not None
            proof.questions = list(proven.pending)
            row = {
                "task_id": result.task_id,
                "language": language,
                "passed": result.passed,
                "tests_green": work.verdict == "passed",
                "strength": proof.strength,
                "score": proof.mutation.score if proof.mutation else None,
                "score_before": proof.mutation.score_before if proof.mutation else None,
                "added": len(proof.added),
                "questions": len(proof.questions),
                "flips": _flips(proof),
                "seconds": round(time.perf_counter() - started, 2),
                "runs": len(clients[language].calls) - calls_before,  # type: ignore[attr-defined]
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
            if args.out:
                with args.out.open("a") as fh:
                    fh.write(json.dumps(row) + "\n")
    _summary(rows)


def _ratio(num: int, den: int) -> str:
    return f"{100 * num / den:.1f}% ({num}/{den})" if den else "–"


def _summary(rows: list[dict[str, object]]) -> None:
    for language in sorted({str(r["language"]) for r in rows}):
        mine = [r for r in rows if r["language"] == language]
        seconds = sorted(float(str(r["seconds"])) for r in mine)
        runs = statistics.median(int(str(r["runs"])) for r in mine)
        scores = [float(str(r["score"])) for r in mine if r["score"] is not None]
        strengths = {s: sum(r["strength"] == s for r in mine) for s in STRENGTHS}
        correct = [r for r in mine if r["passed"]]
        tests = [r for r in mine if r["tests_green"]]
        proven = [r for r in tests if r["strength"] in ("strong", "moderate")]
        flips = [r for r in mine if r["flips"]]
        print(f"\n{language}: {len(mine)} task(s)")
        print(f"  proof seconds: median {statistics.median(seconds):.1f}, p90 {_p90(seconds):.1f}")
        print(f"  sandbox runs per task: median {runs}")
        median = statistics.median(scores) if scores else float("nan")
        print(f"  mutation score: median {median:.2f} over {len(scores)}; {strengths}")
        precision = _ratio(sum(bool(r["passed"]) for r in tests), len(tests))
        recall = _ratio(sum(bool(r["tests_green"]) for r in correct), len(correct))
        print(f"  own tests pass:           precision {precision}, recall {recall}")
        precision = _ratio(sum(bool(r["passed"]) for r in proven), len(proven))
        recall = _ratio(sum(r in proven for r in correct), len(correct))
        print(f"  ... on a moderate proof:  precision {precision}, recall {recall}")
        asked = sum(int(str(r["questions"])) > 0 for r in mine)
        right = sum(bool(r["passed"]) for r in flips)
        print(f"  tasks with a question: {asked}; default not the chosen code's: {len(flips)}")
        print(f"  ... of which the chosen code is correct: {right}")


STRENGTHS = ("strong", "moderate", "weak", "unmeasured")


def _p90(values: list[float]) -> float:
    return values[int(0.9 * (len(values) - 1))]


if __name__ == "__main__":
    main()
