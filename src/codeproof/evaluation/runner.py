"""Run an evaluation: solve tasks concurrently, score them, append results, report.

Tasks run concurrently up to the provider's slots. Each finished task is scored in the
sandbox and appended to ``results.jsonl`` at once, so an interrupted run resumes where
it stopped (``resume=True`` skips the tasks and modes already there).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from codeproof.core.config import ProofSettings
from codeproof.core.errors import (
    ContextLengthError,
    InputError,
    ProviderResponseError,
    ProviderTimeoutError,
    StructuredOutputError,
    ToolchainError,
)
from codeproof.core.proof import Proof
from codeproof.engine.context import EngineOptions
from codeproof.evaluation.datasets import Task
from codeproof.evaluation.extract import assemble
from codeproof.evaluation.metering import MeteredModel
from codeproof.evaluation.pipeline import Evidence, TestRunner, run_pipeline
from codeproof.evaluation.report import write_reports
from codeproof.evaluation.results import Mode, ResultStore, RunInfo, TaskResult
from codeproof.evaluation.scoring import Scorer
from codeproof.evaluation.single import solve_single
from codeproof.evaluation.stats import Summary
from codeproof.llm.provider import BaseChatModel

logger = logging.getLogger(__name__)

#: Failures that end one task (recorded with ``error``), not the whole run.
TASK_ERRORS = (
    ContextLengthError,
    StructuredOutputError,
    ProviderTimeoutError,
    ProviderResponseError,
    ToolchainError,
    InputError,
)

ToolchainOpener = Callable[[str], AbstractContextManager[TestRunner]]
Progress = Callable[[TaskResult, int, int], None]
"""``(result, finished so far including resumed ones, total)``."""


@dataclass(frozen=True)
class EvalOptions:
    """How to run an evaluation."""

    dataset: str
    modes: tuple[Mode, ...]
    limit: int | None = None
    sample_seed: int = 0
    max_attempts: int = 5
    candidates: int = 7
    """The most drafts the evidence ladder may write per task."""
    probe_inputs: int = 8
    max_tokens: int = 1024
    test_timeout_s: float = 60.0
    resume: bool = False
    jobs: int | None = None
    """Tasks solved at once (default: the model's slots). Speed ratios are measured one
    task at a time: on two cores concurrent tasks only stretch each other."""
    interleave: bool = False
    """Run each task in every mode before the next task (paired times under the same
    load) instead of one mode over all tasks, then the next."""
    proof: ProofSettings = field(default_factory=ProofSettings)

    def engine(self) -> EngineOptions:
        """The engine's budget for one task (the same engine as ``codeproof new``)."""
        return EngineOptions(
            max_attempts=self.max_attempts,
            max_drafts=self.candidates,
            probe_inputs=self.probe_inputs,
            timeout_s=self.test_timeout_s,
            **self.proof.engine_options(),
        )


@dataclass
class _Solved:
    solution: str
    own_tests_green: bool | None
    attempts: int
    history: list[str] = field(default_factory=list)
    drafts: list[str] = field(default_factory=list)
    chosen: int | None = None
    tests: dict[str, str] | None = None
    failures: list[str] | None = None
    evidence: Evidence | None = None
    tests_green: bool | None = None
    proof: Proof | None = None


def _score(proof: Proof | None) -> float | None:
    return proof.mutation.score if proof is not None and proof.mutation is not None else None


class Evaluator:
    """Solves, scores and records tasks for one output directory.

    Args:
        model: The shared provider; every task gets its own metered view of it.
        scorer: Opened scorer (sandbox sessions for the hidden tests).
        toolchains: Language -> started toolchain client (pipeline mode only).
        options: What to run.
        out_dir: Where results and reports go.
        progress: Called after each task with its result and the run's progress.
    """

    def __init__(
        self,
        model: BaseChatModel,
        scorer: Scorer,
        toolchains: ToolchainOpener | None,
        options: EvalOptions,
        out_dir: Path,
        progress: Progress | None = None,
    ) -> None:
        self.model = model
        self.scorer = scorer
        self.toolchains = toolchains
        self.options = options
        self.store = ResultStore(out_dir)
        self.progress = progress
        self._stack = ExitStack()
        self._runners: dict[str, TestRunner] = {}
        self._lock = threading.Lock()
        self._finished, self._total = 0, 0

    def info(self, tasks: Sequence[Task]) -> RunInfo:
        """The run's identity (stored in ``run.json``)."""
        o = self.options
        return RunInfo(
            dataset=o.dataset,
            provider=self.model.name,
            model=self.model.model,
            modes=list(o.modes),
            limit=o.limit,
            sample_seed=o.sample_seed,
            max_attempts=o.max_attempts,
            candidates=o.candidates,
            probe_inputs=o.probe_inputs,
            engine="ladder" if "pipeline" in o.modes else None,
            proof=o.proof.model_dump(mode="json") if "pipeline" in o.modes else None,
            task_ids=[t.task_id for t in tasks],
        )

    def run(self, tasks: Sequence[Task]) -> Summary:
        """Evaluate ``tasks`` in every mode, then write ``summary.json`` and the reports."""
        if "pipeline" in self.options.modes and self.toolchains is None:
            raise ValueError("the pipeline mode needs a toolchain opener")
        info = self.info(tasks)
        results = self.store.prepare(info, resume=self.options.resume)
        done = {(r.task_id, r.mode) for r in results}
        wanted = {t.task_id for t in tasks}
        self._total = len(tasks) * len(self.options.modes)
        self._finished = sum(r.task_id in wanted and r.mode in self.options.modes for r in results)
        try:
            pending = [
                (mode, task)
                for task, mode in self._order(tasks)
                if (task.task_id, mode) not in done
            ]
            logger.info("%d task run(s) to make, %d done", len(pending), self._finished)
            results += self._run_all(pending)
        finally:
            self._stack.close()
            self._runners.clear()
        kept = [r for r in results if r.task_id in wanted and r.mode in self.options.modes]
        return write_reports(self.store.out_dir, info, kept)

    def _order(self, tasks: Sequence[Task]) -> list[tuple[Task, Mode]]:
        """Every (task, mode): mode after mode, or task by task with ``interleave`` (each
        task's modes one after the other, so their times are taken under the same load)."""
        modes = self.options.modes
        if self.options.interleave:
            return [(task, mode) for task in tasks for mode in modes]
        return [(task, mode) for mode in modes for task in tasks]

    def _run_all(self, pending: Sequence[tuple[Mode, Task]]) -> list[TaskResult]:
        """Run ``pending`` on ``jobs`` threads, submitting a task only when a thread is free:
        after a failure (Ctrl-C, the provider down, a broken sandbox) no further task starts."""
        workers = self.options.jobs or max(1, self.model.slots)
        items = iter(enumerate(pending))
        results: dict[int, TaskResult] = {}
        running: dict[Future[TaskResult], int] = {}
        pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="eval")
        try:
            for index, item in islice(items, workers):
                running[pool.submit(self._run_task, *item)] = index
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    results[running.pop(future)] = future.result()
                    for index, item in islice(items, 1):
                        running[pool.submit(self._run_task, *item)] = index
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
        return [results[index] for index in range(len(pending))]

    def _runner(self, language: str) -> TestRunner:
        assert self.toolchains is not None  # checked by run()
        with self._lock:
            runner = self._runners.get(language)
            if runner is None:
                runner = self._stack.enter_context(self.toolchains(language))
                self._runners[language] = runner
            return runner

    def _solve(self, mode: Mode, model: BaseChatModel, task: Task) -> _Solved:
        if mode == "single":
            return _Solved(solve_single(model, task, max_tokens=self.options.max_tokens), None, 1)
        outcome = run_pipeline(model, self._runner(task.language), task, self.options.engine())
        return _Solved(
            assemble(task, outcome.code),
            outcome.own_tests_green,
            outcome.attempts,
            outcome.history,
            [assemble(task, code) for code in outcome.drafts],
            outcome.chosen,
            outcome.tests,
            outcome.failures,
            outcome.evidence,
            outcome.tests_green,
            outcome.proof,
        )

    def _run_task(self, mode: Mode, task: Task) -> TaskResult:
        metered = MeteredModel(self.model)
        started = time.perf_counter()
        error: str | None = None
        try:
            solved = self._solve(mode, metered, task)
        except TASK_ERRORS as exc:
            logger.warning("%s %s: %s", mode, task.task_id, exc)
            error = f"{type(exc).__name__}: {exc}"
            solved = _Solved(assemble(task, ""), False if mode == "pipeline" else None, 0)
        wall = time.perf_counter() - started
        unique = list(dict.fromkeys([solved.solution, *solved.drafts]))  # drafts repeat
        scored = dict(zip(unique, self.scorer.score([(task, c) for c in unique]), strict=True))
        score, drafts = scored[solved.solution], [scored[c].passed for c in solved.drafts]
        usage = metered.stats.snapshot()
        result = TaskResult(
            task_id=task.task_id,
            mode=mode,
            language=task.language,
            passed=score.passed and error is None,
            status="error" if error else score.status,
            own_tests_green=solved.own_tests_green,
            attempts=solved.attempts,
            wall_s=round(wall, 3),
            prompt_tokens=usage.prompt_tokens,
            cached_prompt_tokens=usage.cached_prompt_tokens,
            draft_tokens=usage.draft_tokens,
            draft_accepted=usage.draft_accepted,
            completion_tokens=usage.completion_tokens,
            cost_usd=usage.cost_usd,
            llm_calls=usage.calls,
            cache_hits=usage.cache_hits,
            final_code=solved.solution,
            error=error,
            score_output=score.output[-1000:],
            history=solved.history,
            drafts_passed=drafts if solved.drafts else None,
            chosen_draft=solved.chosen,
            own_tests=solved.tests,
            own_failures=solved.failures,
            draft_files=solved.evidence.drafts if solved.evidence else None,
            designed_tests=solved.evidence.tests if solved.evidence else None,
            probe_inputs=solved.evidence.inputs if solved.evidence else None,
            tests_green=solved.tests_green,
            mutation_score=_score(solved.proof),
            proof_strength=solved.proof.strength if solved.proof else None,
            assumptions=solved.proof.assumptions if solved.proof else None,
            kept_over_tests=solved.proof.kept_choices if solved.proof else None,
        )
        self.store.append(result)
        with self._lock:
            self._finished += 1
            finished = self._finished
        if self.progress is not None:
            self.progress(result, finished, self._total)
        return result
