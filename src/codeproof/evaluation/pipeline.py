"""The ``pipeline`` mode: the workflow's per-module steps for one task, no interrupts.

plan → (test design ‖ programming of ``candidates`` drafts) → run the designed tests on
every draft in the sandbox → keep the draft passing most → repair until the tests pass,
the code stops changing, or ``max_attempts`` test runs were made. This mirrors the
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
from codeproof.toolchains.models import TestReport

logger = logging.getLogger(__name__)


class TestRunner(Protocol):
    """The part of :class:`codeproof.toolchains.client.ToolchainClient` used here."""

    def run_tests(
        self, files: dict[str, str], tests: dict[str, str], timeout_s: float | None = None
    ) -> TestReport: ...

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


def _best(
    runner: TestRunner, drafts: list[CodeDraft], tests: dict[str, str], timeout_s: float
) -> tuple[dict[str, str], TestReport]:
    best: tuple[dict[str, str], TestReport] | None = None
    for draft in drafts:
        files = _as_dict(draft.files)
        report = runner.run_tests(files, tests, timeout_s) if files else TestReport()
        if best is None or report.passed > best[1].passed:
            best = (files, report)
    assert best is not None  # write_code returns at least one draft
    return best


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
    tests = _as_dict(test_draft.files)
    if not tests:
        logger.info("%s: no tests were designed; keeping the first draft", task.task_id)
        return PipelineOutcome(_main_code(_as_dict(drafts[0].files), module), False, 0)
    files, report = _best(runner, drafts, tests, timeout_s)
    attempts, history = 1, list[str]()
    seen = {_digest({**files, **tests})}
    while not report.green and attempts < max_attempts and files:
        result = repairer.repair(model, spec, module, files, tests, report, history=history)
        files = {**files, **_as_dict(result.files)}
        if result.test_files and result.test_change_reason:
            tests = {**tests, **_as_dict(result.test_files)}
        history.append(result.change_summary or "repair")
        digest = _digest({**files, **tests})
        if digest in seen:  # stuck: the same code again would give the same report
            break
        seen.add(digest)
        report = runner.run_tests(files, tests, timeout_s)
        attempts += 1
    return PipelineOutcome(_main_code(files, module), report.green, attempts, tests, history)
