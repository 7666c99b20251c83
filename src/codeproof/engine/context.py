"""What the engine's steps need at run time (never checkpointed).

The workflow builds a :class:`Context` per module from its ``Deps`` (a recording model
per node scope, the run's toolchain client); the evaluation builds one per task (a
metered model, the shared toolchain client). Both then call the same steps.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from pydantic import BaseModel, Field

from codeproof.core.types import Module, ProgramRun, Spec, TestReport
from codeproof.languages import registry
from codeproof.languages.base import Language
from codeproof.llm.base import ChatModel
from codeproof.toolchains.api import ToolchainAPI


class EngineOptions(BaseModel):
    """How much the engine may spend on one module.

    Attributes:
        max_attempts: Test runs of the chosen code per round (first run included).
        max_drafts: Drafts the evidence ladder may write in all (1 = the greedy one only).
        rung: Drafts added per rung of the ladder.
        probe_inputs: Edge-case inputs asked of the input designer once drafts disagree.
        timeout_s: Limit of one test run.
        min_tests: Fewest tests the test designer is asked for.
        max_tests: Most tests the test designer is asked for.
        proof: Whether the proof step measures the tests' strength (:mod:`.proving`).
        mutants: Code mutants the proof runs at most.
        proof_budget_s: The time box of the mutation analysis (sandbox runs of mutants).
        questions: Questions on the drafts' disagreements per module at most.
        read_defaults: Whether a question's default is read in the user's words
            (:mod:`.judging`) where it can be.
        proof_drafts: Drafts whose outputs the proof compares; with fewer, green code
            gets one more rung of drafts first (1: no more drafts for the proof).
    """

    max_attempts: int = Field(default=5, ge=1)
    max_drafts: int = Field(default=7, ge=1)
    rung: int = Field(default=2, ge=1)
    probe_inputs: int = Field(default=8, ge=0)
    timeout_s: float = Field(default=60.0, gt=0)
    min_tests: int = Field(default=4, ge=1)
    max_tests: int = Field(default=8, ge=1)
    proof: bool = True
    mutants: int = Field(default=40, ge=0)
    proof_budget_s: float = Field(default=120.0, ge=0)
    questions: int = Field(default=3, ge=0)
    read_defaults: bool = True
    proof_drafts: int = Field(default=3, ge=1)


class DirectDrafter(Protocol):
    """Completes the user's own words as written: draft ``index`` of the module's file(s).

    A ``greedy`` draft is decoded at temperature 0: draft 0 (the one-call answer), and the
    first draft written with answers the person gave (the workflow shows them beside the
    request); the others are sampled with seed ``index``. The evaluation answers a
    benchmark prompt the way its single-shot mode does; the workflow asks the programmer
    to write the module straight from the request.
    """

    def __call__(self, model: ChatModel, index: int, greedy: bool) -> dict[str, str]: ...


ContextFn = Callable[[Spec, Module], str]
"""The retrieval plug: extra context for the programmer (``None`` = no retrieval)."""

GroundFn = Callable[[str, str], str]
"""Retrieval for the other steps: ``(step, detail) -> prompt section`` (``plan``,
``repair`` with its failures); the text is fenced and labelled as data."""

GateFn = Callable[[dict[str, str], dict[str, str]], TestReport | None]
"""``(files, tests) -> failures`` of passing code placed in an existing project
(``None``: no test that passed before fails)."""


def digest(*parts: object) -> str:
    """A stable short hash of JSON-compatible values."""
    blob = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


@dataclass
class Memo:
    """The sandbox runs of one module already made (keyed by what was run)."""

    reports: dict[str, TestReport] = field(default_factory=dict)
    runs: dict[str, ProgramRun] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class Context:
    """One module's runtime objects.

    Args:
        spec: The specification.
        module: The module to build.
        words: What the user wrote (request and answers, or a benchmark prompt).
        examples: The examples the user stated for this module (ground truth).
        worked: The user's worked examples for this module, told in words
            (:mod:`codeproof.contract.worked`); grounded tests of them count as examples.
        toolchain: The started toolchain client of the module's language.
        model_for: ``scope -> model``: the model as one step sees it.
        direct: Completes the user's words as written.
        options: The engine's budget.
        dependencies: The modules this one uses.
        others: The request's other modules (neither this one nor a dependency): what
            they declare is theirs to test.
        dependency_files: Their final source files.
        retrieval: Optional extra context for the programmer.
        ground: Optional retrieved context for the planner and the repairer.
        project_files: An existing project's files, given to every sandbox run.
        gate: Checks passing code inside the existing project.
        after_tool_call: Called after each sandbox call (the workflow's audit trail).
        memo: Runs already made (shared by the contexts of one module).
    """

    spec: Spec
    module: Module
    words: str
    toolchain: ToolchainAPI
    model_for: Callable[[str], ChatModel]
    direct: DirectDrafter
    examples: list[str] = field(default_factory=list)
    worked: list[str] = field(default_factory=list)
    options: EngineOptions = field(default_factory=EngineOptions)
    dependencies: list[Module] = field(default_factory=list)
    dependency_files: dict[str, str] = field(default_factory=dict)
    others: list[Module] = field(default_factory=list)
    retrieval: ContextFn | None = None
    ground: GroundFn | None = None
    project_files: dict[str, str] = field(default_factory=dict)
    gate: GateFn | None = None
    after_tool_call: Callable[[], None] = lambda: None
    memo: Memo = field(default_factory=lambda: Memo())

    @property
    def language(self) -> Language:
        """The module's language."""
        return registry.language_for(self.module.language)

    def run_tests(
        self, files: dict[str, str], tests: dict[str, str], timeout_s: float | None = None
    ) -> TestReport:
        """One test run in the sandbox (the same files and tests are run once), cut after
        ``timeout_s`` (default: the options' limit)."""
        if not tests:
            return TestReport(message="the test designer wrote no tests for this module")
        everything = {**self.project_files, **self.dependency_files, **files}
        sources = {p: c for p, c in everything.items() if p not in tests}
        key = digest(sources, tests)
        with self.memo.lock:
            known = self.memo.reports.get(key)
        if known is not None:
            return known
        try:
            report = self.toolchain.run_tests(sources, tests, timeout_s or self.options.timeout_s)
        finally:
            self.after_tool_call()
        with self.memo.lock:
            self.memo.reports[key] = report
        return report

    def grounding(self, step: str, detail: str = "") -> str:
        """The retrieved context of a step ("" without retrieval)."""
        return self.ground(step, detail) if self.ground is not None else ""

    def run_program(self, files: dict[str, str], args: list[str], timeout_s: float) -> ProgramRun:
        """One program run (a probe) of ``files`` with the dependencies, in the sandbox."""
        sources = {**self.project_files, **self.dependency_files, **files}
        key = digest(sources, args)
        with self.memo.lock:
            known = self.memo.runs.get(key)
        if known is not None:
            return known
        try:
            result = self.toolchain.run(sources, args, timeout_s=timeout_s)
        finally:
            self.after_tool_call()
        with self.memo.lock:
            self.memo.runs[key] = result
        return result
