"""The ``pipeline`` mode: the engine of ``codeproof new`` on one benchmark task.

The spec and module come from the prompt only (:mod:`.taskspec`); the user's words are
the prompt, its stated examples are the docstring's; the first draft is the single mode's
answer (the same request), so the pipeline starts where one call ends. Then the engine
(:func:`codeproof.engine.loop.build`, failure policy ``continue``) runs the steps the
workflow runs: tests ‖ first draft → execute → draw / repair while the evidence calls for
it → the best attempt → its proof (questions take their default answers). This module
only adapts a task to the engine and its result back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from codeproof.contract.worked import worked_examples
from codeproof.core.proof import Proof
from codeproof.core.types import Module, TestReport
from codeproof.engine.context import Context, EngineOptions
from codeproof.engine.loop import build
from codeproof.engine.proving import status_of
from codeproof.engine.state import Work
from codeproof.evaluation.datasets import Task
from codeproof.evaluation.single import solve_single
from codeproof.evaluation.taskspec import module_for, spec_for
from codeproof.languages import registry
from codeproof.llm.base import ChatModel
from codeproof.toolchains.api import ToolchainAPI

TestRunner = ToolchainAPI
"""The started toolchain client the pipeline runs tests and probes through."""

RAW_TEMPERATURE = 0.8
"""Temperature of the sampled completions of the prompt (the first one is greedy)."""

FAILURES_KEPT = 20


@dataclass
class Evidence:
    """The inputs of the choice among drafts: enough to make it again without a model."""

    drafts: list[dict[str, str]]
    """Every draft's files, in the order they were written."""
    tests: dict[str, str]
    """The designed tests as written (before any set-aside)."""
    inputs: list[str]
    """The input designer's lines (probe inputs)."""


@dataclass
class PipelineOutcome:
    """What the pipeline produced for one task."""

    code: str
    own_tests_green: bool
    """Reported green: the code passes its kept tests on a moderately strong proof."""
    attempts: int
    tests: dict[str, str] = field(default_factory=dict)
    history: list[str] = field(default_factory=list)
    drafts: list[str] = field(default_factory=list)
    """The main code of every draft, in the order written (for the harness to score how
    often a draft was right, and whether the choice found it)."""
    chosen: int | None = None
    """The draft the last choice picked (before any repair)."""
    failures: list[str] = field(default_factory=list)
    """The final code's failing own tests, ``name: first line of the message`` (or the
    run's message when nothing ran, e.g. a compilation failure)."""
    evidence: Evidence | None = None
    """What the choice was made from (for replaying it, :mod:`.replay`)."""
    examples_missed: int = 0
    """Stated examples the final code misses."""
    tests_green: bool = False
    """The final code passes its kept tests (whatever the proof says)."""
    proof: Proof | None = None


def _failures(report: TestReport | None) -> list[str]:
    if report is None:
        return []
    failing = []
    for test in report.failures:
        lines = (test.message or "").strip().splitlines()
        failing.append(f"{test.name}: {lines[0][:300] if lines else test.outcome}")
    if not failing and not report.green and report.message:
        failing = [report.message[:600]]
    return failing[:FAILURES_KEPT]


def main_code(files: dict[str, str], module: Module) -> str:
    """The module's own file among ``files`` (else the first one)."""
    default = registry.layout_for(module.language).source_path(module.name)
    if default in files:
        return files[default]
    return next(iter(files.values()), "")


@dataclass
class DirectCompleter:
    """Completes a benchmark prompt as the single mode does (greedy, then sampled)."""

    task: Task
    module: Module

    def __call__(self, model: ChatModel, index: int, greedy: bool) -> dict[str, str]:
        language = registry.language_for(self.module.language)
        temperature = 0.0 if greedy else RAW_TEMPERATURE
        code = solve_single(model, self.task, temperature=temperature, seed=index)
        fix = language.benchmarks.completion_fix if language.benchmarks else None
        path = language.layout.source_path(self.module.name)
        return {path: fix(code, self.task) if fix else code}


def context_for(
    model: ChatModel, runner: TestRunner, task: Task, options: EngineOptions
) -> Context:
    """The engine's view of a task: the prompt is the user's words."""
    spec, module = spec_for(task), module_for(task)
    return Context(
        spec=spec,
        module=module,
        words=task.prompt,
        toolchain=runner,
        model_for=lambda scope: model,
        direct=DirectCompleter(task, module),
        examples=list(spec.acceptance_examples),
        worked=worked_examples(task.prompt, module, [module]),
        options=options,
    )


def outcome_of(work: Work, module: Module) -> PipelineOutcome:
    """The engine's final state as the evaluation records it."""
    report = work.report
    return PipelineOutcome(
        code=main_code(work.files or {}, module),
        own_tests_green=status_of(work) == "passed",
        attempts=work.attempts_total,
        tests=dict(work.tests),
        history=[h.change for h in work.history],
        drafts=[main_code(d.files, module) for d in work.drafts],
        chosen=work.chosen,
        failures=_failures(report),
        evidence=Evidence([d.files for d in work.drafts], dict(work.designed), list(work.inputs)),
        examples_missed=work.examples_missed,
        tests_green=work.verdict == "passed",
        proof=work.proof,
    )


def run_pipeline(
    model: ChatModel, runner: TestRunner, task: Task, options: EngineOptions
) -> PipelineOutcome:
    """Build the task's module with the engine and return its final code."""
    ctx = context_for(model, runner, task, options)
    return outcome_of(build(ctx), ctx.module)
