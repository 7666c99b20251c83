"""The ``pipeline`` mode: the workflow's per-module steps for one task, no interrupts.

plan → (test design ‖ programming of ``candidates`` drafts) → run the designed tests on
every draft in the sandbox → choose by execution agreement and quarantine the tests no
draft passes (:mod:`codeproof.workflow.selection`) → repair until the tests pass, the
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
from typing import Protocol

from codeproof.agents import planner, programmer, repairer, test_designer
from codeproof.agents.layout import layout_for
from codeproof.agents.schemas import CodeDraft, Module, SourceFile, Spec, TestDraft
from codeproof.evaluation.datasets import Task
from codeproof.evaluation.taskspec import module_for, spec_for
from codeproof.llm.base import ChatModel
from codeproof.toolchains.models import RunReport, TestReport
from codeproof.workflow.selection import choose

logger = logging.getLogger(__name__)


class TestRunner(Protocol):
    """The part of :class:`codeproof.toolchains.client.ToolchainClient` used here."""

    def run_tests(
        self, files: dict[str, str], tests: dict[str, str], timeout_s: float | None = None
    ) -> TestReport: ...

    def run(
        self,
        files: dict[str, str],
        command_args: list[str],
        stdin: str | None = None,
        timeout_s: float | None = None,
    ) -> RunReport: ...

    def conventions(self) -> str: ...


@dataclass
class PipelineOutcome:
    """What the pipeline produced for one task."""

    code: str
    own_tests_green: bool
    attempts: int
    tests: dict[str, str] = field(default_factory=dict)
    history: list[str] = field(default_factory=list)


def _as_dict(files: Sequence[SourceFile]) -> dict[str, str]:
    return {f.path: f.content for f in files}


def _digest(files: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()


def _main_code(files: dict[str, str], module: Module) -> str:
    default = layout_for(module.language).source_path(module.name)
    if default in files:
        return files[default]
    return next(iter(files.values()), "")


def _draft(
    model: ChatModel, spec: Spec, module: Module, conventions: str, candidates: int
) -> tuple[TestDraft, list[CodeDraft]]:
    """Tests and code concurrently (the designer never sees the code)."""
    plan = planner.plan_module(model, spec, module)
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="eval-draft") as pool:
        tests = pool.submit(test_designer.design_tests, model, spec, module, conventions)
        code = pool.submit(
            programmer.write_code, model, spec, module, plan, conventions, n=candidates
        )
        return tests.result(), code.result()


def run_pipeline(
    model: ChatModel,
    runner: TestRunner,
    task: Task,
    *,
    max_attempts: int,
    candidates: int = 1,
    timeout_s: float = 60.0,
) -> PipelineOutcome:
    """Build the task's module and return its final code.

    ``attempts`` counts test runs (the first run of the chosen draft included), as the
    workflow does. Without designed tests there is nothing to repair against: the first
    draft is returned as it is.
    """
    spec, module = spec_for(task), module_for(task)
    test_draft, drafts = _draft(model, spec, module, runner.conventions(), candidates)
    choice = choose(
        lambda files, tests: runner.run_tests(files, tests, timeout_s),
        [_as_dict(d.files) for d in drafts],
        _as_dict(test_draft.files),
        module,
        spec.acceptance_examples,
        lambda files, args, timeout: runner.run(files, args, timeout_s=timeout),
    )
    if not choice.tests:
        logger.info("%s: no tests were designed; keeping the first draft", task.task_id)
        return PipelineOutcome(_main_code(_as_dict(drafts[0].files), module), False, 0)
    files, tests, report = choice.files, choice.tests, choice.report
    attempts, history = 1, [choice.note]
    best = (report.passed, files, report)
    seen = {_digest({**files, **tests})}
    while not report.green and attempts < max_attempts and files:
        result = repairer.repair(model, spec, module, files, tests, report, history=history[1:])
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
    return PipelineOutcome(_main_code(files, module), report.green, attempts, tests, history)
