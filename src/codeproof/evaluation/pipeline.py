"""The ``pipeline`` mode: the workflow's per-module steps for one task, no interrupts.

(test design ‖ ``candidates`` drafts: completions of the prompt as written, and the
programmer's drafts from a plan) → run the designed tests on
every draft in the sandbox → choose by execution agreement and quarantine the tests no
draft passes (:mod:`codeproof.choosing.selection`) → repair until the tests pass, the
code stops changing, or ``max_attempts`` test runs were made; the attempt passing the
most tests is kept (a repair that breaks passing tests is not the answer). This mirrors the
workflow's module nodes (``codeproof.workflow.module_nodes``) with the failure policy
``continue``; the spec and module come from the prompt only (:mod:`.taskspec`).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from codeproof.agents import input_designer, planner, programmer, repairer, test_designer
from codeproof.choosing.selection import Choice, choose, choose_or_draw
from codeproof.core.types import CodeDraft, Module, SourceFile, Spec, TestDraft, TestReport
from codeproof.evaluation.datasets import Task
from codeproof.evaluation.single import solve_single
from codeproof.evaluation.taskspec import module_for, spec_for
from codeproof.languages import registry
from codeproof.languages.registry import layout_for
from codeproof.llm.base import ChatModel
from codeproof.toolchains.api import ToolchainAPI

logger = logging.getLogger(__name__)


TestRunner = ToolchainAPI
"""The started toolchain client the pipeline runs tests and probes through."""


@dataclass
class Evidence:
    """The inputs of the choice among drafts: enough to make it again without a model."""

    drafts: list[dict[str, str]]
    """Every first draft's files, in candidate order."""
    tests: dict[str, str]
    """The designed tests as written (before any set-aside)."""
    inputs: list[str]
    """The input designer's lines (probe inputs)."""


@dataclass
class PipelineOutcome:
    """What the pipeline produced for one task."""

    code: str
    own_tests_green: bool
    attempts: int
    tests: dict[str, str] = field(default_factory=dict)
    history: list[str] = field(default_factory=list)
    drafts: list[str] = field(default_factory=list)
    """The main code of every first draft, in candidate order (for the harness to score
    how often a draft was right, and whether the choice found it)."""
    chosen: int | None = None
    """The draft the choice picked (before any repair)."""
    failures: list[str] = field(default_factory=list)
    """The final code's failing own tests, ``name: first line of the message`` (or the
    run's message when nothing ran, e.g. a compilation failure)."""
    evidence: Evidence | None = None
    """What the choice was made from (for replaying it, :mod:`.replay`)."""


FAILURES_KEPT = 20


def _failures(report: TestReport) -> list[str]:
    failing = []
    for test in report.tests:
        if test.outcome in ("failed", "error"):
            lines = (test.message or "").strip().splitlines()
            failing.append(f"{test.name}: {lines[0][:300] if lines else test.outcome}")
    if not failing and not report.green and report.message:
        failing = [report.message[:600]]
    return failing[:FAILURES_KEPT]


def _as_dict(files: Sequence[SourceFile]) -> dict[str, str]:
    return {f.path: f.content for f in files}


def _digest(files: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()


def _main_code(files: dict[str, str], module: Module) -> str:
    default = layout_for(module.language).source_path(module.name)
    if default in files:
        return files[default]
    return next(iter(files.values()), "")


RAW_TEMPERATURE = 0.8
"""Temperature of the prompt-completion candidates after the first (greedy) one."""


def _completions(
    model: ChatModel, task: Task, module: Module, n: int, start: int = 0
) -> list[dict[str, str]]:
    """``n`` candidates that complete the prompt as written (the single mode's request).

    Candidate ``start`` onwards: candidate 0 is greedy, so it is the single-shot answer (a
    response-cache hit when the single mode ran first); the others are sampled, each
    with its own seed. A JavaScript candidate gets the export the designed tests
    require, a Java one the standard imports it forgot.
    """
    language = registry.language_for(module.language)
    path = language.layout.source_path(module.name)
    fix = language.benchmarks.completion_fix if language.benchmarks else None
    out = []
    for i in range(start, start + n):
        temperature = 0.0 if i == 0 else RAW_TEMPERATURE
        code = solve_single(model, task, temperature=temperature, seed=i)
        out.append({path: fix(code, task) if fix else code})
    return out


@dataclass
class _Drafts:
    tests: TestDraft
    code: list[dict[str, str]]
    inputs: list[str]


def _design(
    model: ChatModel, spec: Spec, module: Module, conventions: str, inputs: int
) -> tuple[TestDraft, list[str]]:
    """The test designer's tests, then the input designer's probe inputs (no code seen)."""
    tests = test_designer.design_tests(model, spec, module, conventions)
    proposed = input_designer.propose_inputs(model, spec, module, n=inputs) if inputs else []
    return tests, proposed


def _draft(
    model: ChatModel,
    task: Task,
    spec: Spec,
    module: Module,
    conventions: str,
    candidates: int,
    probe_inputs: int,
) -> _Drafts:
    """Tests (and probe inputs) and code concurrently (the designers never see the code).

    The candidates differ in how they read the task, not only in temperature: half of
    them (rounded up) complete the prompt as written, the others are the programmer's
    drafts from the spec, the plan and an approach hint each. Probe inputs are asked for
    only when there are several candidates to compare.
    """
    raw = (candidates + 1) // 2
    inputs = probe_inputs if candidates > 1 else 0
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="eval-draft") as pool:
        design = pool.submit(_design, model, spec, module, conventions, inputs)
        drafts: list[CodeDraft] = []
        if candidates > raw:
            plan = planner.plan_module(model, spec, module)
            drafts = programmer.write_code(
                model, spec, module, plan, conventions, n=candidates - raw
            )
        code = [*_completions(model, task, module, raw), *(_as_dict(d.files) for d in drafts)]
        tests, proposed = design.result()
        return _Drafts(tests, code, proposed)


def _choose(
    model: ChatModel,
    runner: TestRunner,
    task: Task,
    made: _Drafts,
    extra: int,
    timeout_s: float,
) -> tuple[list[dict[str, str]], Choice, list[str]]:
    """The drafts, the choice among them, and a note when more drafts had to be drawn."""
    spec, module = spec_for(task), module_for(task)

    def pick(drafts: list[dict[str, str]]) -> Choice:
        return choose(
            lambda files, tests: runner.run_tests(files, tests, timeout_s),
            drafts,
            _as_dict(made.tests.files),
            module,
            spec.acceptance_examples,
            lambda files, args, timeout: runner.run(files, args, timeout_s=timeout),
            made.inputs,
        )

    drafts, choice, note = choose_or_draw(
        pick, made.code, extra, lambda n, first: _completions(model, task, module, n, first)
    )
    return drafts, choice, [note] if note else []


def run_pipeline(
    model: ChatModel,
    runner: TestRunner,
    task: Task,
    *,
    max_attempts: int,
    candidates: int = 1,
    probe_inputs: int = 0,
    extra_candidates: int = 0,
    timeout_s: float = 60.0,
) -> PipelineOutcome:
    """Build the task's module and return its final code.

    ``attempts`` counts test runs (the first run of the chosen draft included), as the
    workflow does. Without designed tests there is nothing to repair against: the draft
    chosen by its outputs on the examples and proposed inputs is returned as it is.
    ``probe_inputs`` edge-case inputs are proposed for comparing several candidates'
    outputs. When the chosen candidate misses one of the prompt's stated examples (so
    every candidate misses one, or the choice would have avoided it), ``extra_candidates``
    more prompt completions are sampled and the choice is made again among all of them:
    the examples are ground truth, and a misreading shared by the first drafts is often
    absent from a few more.
    """
    spec, module = spec_for(task), module_for(task)
    conventions = runner.conventions()
    made = _draft(model, task, spec, module, conventions, candidates, probe_inputs)
    drafts, choice, notes = _choose(model, runner, task, made, extra_candidates, timeout_s)
    evidence = Evidence(drafts, _as_dict(made.tests.files), made.inputs)
    if not choice.tests:
        logger.info("%s: no tests were designed; keeping the chosen draft", task.task_id)
        firsts = [_main_code(d, module) for d in drafts]
        return PipelineOutcome(
            firsts[choice.index],
            False,
            0,
            history=notes,
            drafts=firsts,
            chosen=choice.index,
            evidence=evidence,
        )
    files, tests, report = choice.files, choice.tests, choice.report
    attempts, history = 1, [*notes, choice.note]
    skip = len(history)
    best = (report.passed, files, report)
    seen = {_digest({**files, **tests})}
    while not report.green and attempts < max_attempts and files:
        result = repairer.repair(model, spec, module, files, tests, report, history=history[skip:])
        files = {**files, **_as_dict(result.files)}
        if result.test_files and result.test_change_reason:
            tests = {**tests, **_as_dict(result.test_files)}
            best = (-1, best[1], best[2])  # other tests: earlier counts do not compare
        history.append(result.change_summary or "repair")
        digest = _digest({**files, **tests})
        if digest in seen:  # stuck: the same code again would give the same report
            break
        seen.add(digest)
        report = runner.run_tests(files, tests, timeout_s)
        attempts += 1
        if report.passed >= best[0]:
            best = (report.passed, files, report)
    _, files, report = best
    return PipelineOutcome(
        _main_code(files, module),
        report.green,
        attempts,
        tests,
        history,
        drafts=[_main_code(d, module) for d in drafts],
        chosen=choice.index,
        failures=_failures(report),
        evidence=evidence,
    )
