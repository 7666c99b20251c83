"""The domain types shared across packages: agents' structured outputs, toolchain reports
and the run report (pydantic models, JSON-compatible)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, computed_field, model_validator

from codeproof.core.grounding import Citation
from codeproof.core.proof import Proof

# -- toolchain reports (the MCP tools' structured results) -------------------------------
Outcome = Literal["passed", "failed", "error", "skipped"]


class TestCase(BaseModel):
    """One test's result, read from a machine-readable report (JUnit XML)."""

    __test__ = False  # not a pytest class

    name: str
    outcome: Outcome
    message: str = ""


class Diagnostic(BaseModel):
    """One compile or lint finding."""

    file: str
    line: int | None = None
    column: int | None = None
    message: str
    severity: Literal["error", "warning"] = "error"
    code: str | None = None


class TestReport(BaseModel):
    """Result of ``run_tests``."""

    __test__ = False

    total: int = 0
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    tests: list[TestCase] = Field(default_factory=list)
    output: str = ""
    duration_s: float = 0.0
    timed_out: bool = False
    message: str = ""
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    """The compiler's errors when the files did not compile (no test ran)."""

    @property
    def green(self) -> bool:
        """All tests passed and there was at least one."""
        return self.total > 0 and self.passed == self.total - self.skipped

    @property
    def loaded(self) -> bool:
        """Some test ran the code: it compiled, and not every test file failed to load
        (a collection or import error is an ``error``, a failing test is a failure)."""
        if self.green:
            return True
        return self.total > 0 and not (self.passed == 0 and self.errors == self.total)

    @property
    def compiled(self) -> bool:
        """Nothing showed that the code fails to compile or load: no compiler error, and
        some test loaded, or no test was there to load (an empty test file after the
        tests that did not compile were set aside)."""
        if self.diagnostics:
            return False
        return self.loaded or self.errors == 0

    @property
    def untested(self) -> bool:
        """The code compiled and no test was there to run (every test was set aside):
        nothing failed, and nothing was shown."""
        return self.total == 0 and self.compiled and not self.timed_out


class CheckReport(BaseModel):
    """Result of ``check``."""

    ok: bool
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    message: str = ""
    """Notes about the check itself (e.g. a linter that is not installed)."""


class ProgramRun(BaseModel):
    """Result of ``run``: one program run in the sandbox."""

    exit_code: int
    stdout: str
    stderr: str
    timed_out: bool = False
    truncated: bool = False
    duration_s: float = 0.0


# -- agents' structured outputs and the run report ----------------------------------------


class QA(BaseModel):
    """A clarifying question and the user's answer."""

    question: str
    answer: str


class Clarification(BaseModel):
    """Intake: either ready to proceed, or questions for the user."""

    reply: str = Field(description="One or two sentences engaging with the request.")
    ready: bool = Field(description="True when the request is clear enough to specify.")
    questions: list[str] = Field(default_factory=list, description="At most 3 questions.")
    assumptions: list[str] = Field(
        default_factory=list, description="What will be assumed if the user says proceed."
    )


SPEC_LIST_MAX = 24
"""Items per list of a spec. In the JSON schema (``maxItems``) it bounds constrained
decoding: a small model once looped on one example until the token limit."""


class Spec(BaseModel):
    """The structured requirements specification."""

    title: str
    summary: str
    language: str = Field(description="python, javascript or java")
    functional_requirements: list[str] = Field(default_factory=list, max_length=SPEC_LIST_MAX)
    interfaces: list[str] = Field(
        default_factory=list,
        max_length=SPEC_LIST_MAX,
        description="Signatures, CLI usage or API endpoints.",
    )
    constraints: list[str] = Field(default_factory=list, max_length=SPEC_LIST_MAX)
    acceptance_examples: list[str] = Field(
        default_factory=list,
        max_length=SPEC_LIST_MAX,
        description="Concrete input -> expected output examples.",
    )
    assumptions: list[str] = Field(default_factory=list, max_length=SPEC_LIST_MAX)


class Module(BaseModel):
    """One unit of work; modules are built in dependency order."""

    name: str = Field(description="Identifier-safe module name, e.g. 'slugify'.")
    purpose: str
    language: str
    depends_on: list[str] = Field(default_factory=list)
    public_interface: str = Field(description="The functions/classes other code uses.")


class ModuleList(BaseModel):
    """Modules proposed for a spec."""

    modules: list[Module]


class ModulePlan(BaseModel):
    """The steps to build one module."""

    steps: list[str]


class SourceFile(BaseModel):
    """A file path (relative, per the toolchain conventions) and its content."""

    path: str
    content: str


class CodeDraft(BaseModel):
    """The programmer's output."""

    files: list[SourceFile]
    notes: str = ""


class TestDraft(BaseModel):
    """The test designer's output (written without seeing the code)."""

    __test__ = False

    files: list[SourceFile]
    notes: str = ""


class RepairResult(BaseModel):
    """The repairer's output."""

    files: list[SourceFile] = Field(description="Full new content of changed source files.")
    test_files: list[SourceFile] = Field(
        default_factory=list,
        description="Changed test files; only when a test contradicts the spec.",
    )
    test_change_reason: str | None = Field(
        default=None, description="Why the test contradicts the spec (required with test_files)."
    )
    change_summary: str = Field(description="What this attempt changed and why.")

    @model_validator(mode="after")
    def _reason_with_test_changes(self) -> RepairResult:
        if self.test_files and not (self.test_change_reason or "").strip():
            raise ValueError("test_change_reason is required when test_files are changed")
        return self


class Docs(BaseModel):
    """Documentation generated at the end."""

    readme: str
    api: str


Severity = Literal["info", "low", "medium", "high"]
ModuleStatus = Literal["passed", "weak", "failed", "skipped"]
"""``passed``: the code passes its kept tests and the proof of those tests is at least
moderately strong; ``weak``: it passes them but the proof is weak (``Proof.weaknesses``
says why); ``failed``: it does not pass them; ``skipped``: not built (the run stopped)."""


class Finding(BaseModel):
    """One static-analysis or secrets-scan finding."""

    tool: str = Field(description="Scanner that produced it, e.g. 'bandit' or 'secrets'.")
    severity: Severity
    file: str
    line: int | None = None
    message: str
    rule: str = Field(description="Rule identifier, e.g. 'B307' or 'aws-access-key'.")


class ModuleOutcome(BaseModel):
    """The final state of one module of a run."""

    module: Module
    files: dict[str, str] = Field(default_factory=dict, description="Source path -> content.")
    tests: dict[str, str] = Field(default_factory=dict, description="Test path -> content.")
    status: ModuleStatus
    attempts: int = 0
    report: TestReport | None = None
    scan: list[Finding] = Field(default_factory=list)
    test_changes: list[str] = Field(
        default_factory=list, description="Reasons of every accepted change to the tests."
    )
    proof: Proof | None = None


class RunUsage(BaseModel):
    """Model usage counters (field names follow ``codeproof.llm.stats.StatsSnapshot``)."""

    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: RunUsage) -> RunUsage:
        return RunUsage(
            calls=self.calls + other.calls,
            cache_hits=self.cache_hits + other.cache_hits,
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cost_usd=self.cost_usd + other.cost_usd,
            latency_s=self.latency_s + other.latency_s,
        )


class ModuleReport(BaseModel):
    """One module's line in the run report."""

    name: str
    language: str
    status: ModuleStatus
    attempts: int = 0
    tests_total: int = 0
    tests_passed: int = 0
    tests_failed: int = 0
    findings: list[Finding] = Field(default_factory=list)
    test_changes: list[str] = Field(default_factory=list)
    usage: RunUsage = Field(default_factory=RunUsage)
    proof: Proof | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def mutation_score(self) -> float | None:
        """The proof's mutation score (``None`` when it was not measured)."""
        mutation = self.proof.mutation if self.proof else None
        return mutation.score if mutation else None

    @classmethod
    def from_outcome(cls, outcome: ModuleOutcome, usage: RunUsage | None = None) -> ModuleReport:
        """The report line of ``outcome``."""
        rep = outcome.report
        return cls(
            name=outcome.module.name,
            language=outcome.module.language,
            status=outcome.status,
            attempts=outcome.attempts,
            tests_total=rep.total if rep else 0,
            tests_passed=rep.passed if rep else 0,
            tests_failed=(rep.failed + rep.errors) if rep else 0,
            findings=list(outcome.scan),
            test_changes=list(outcome.test_changes),
            usage=usage or RunUsage(),
            proof=outcome.proof,
        )


class ReportTotals(BaseModel):
    """Totals over every module of a run."""

    modules: int = 0
    passed: int = 0
    weak: int = 0
    failed: int = 0
    skipped: int = 0
    attempts: int = 0
    tests_total: int = 0
    tests_passed: int = 0
    findings: int = 0


class FileChange(BaseModel):
    """One file the run adds to or changes in the project."""

    path: str
    action: str
    """``add`` or ``modify``."""
    module: str = ""
    content: str = Field(default="", exclude=True)


class ProjectResult(BaseModel):
    """What a ``--project`` run wrote to the project (the report's ``project`` section)."""

    root: str
    applied: bool = False
    reason: str = ""
    branch: str = ""
    commit: str = ""
    backup_dir: str = ""
    changes: list[FileChange] = Field(default_factory=list)
    existing_tests_passed_before: int = 0
    existing_tests_still_passing: int = 0
    new_tests_passed: int = 0
    new_tests_total: int = 0


class RunReport(BaseModel):
    """What a run produced and what it cost; written as ``codeproof-report.json``.

    ``totals`` is always derived from ``modules``; ``usage`` covers the whole run
    (every role, including intake and docs), so it can exceed the sum of the modules.
    """

    generator: Literal["codeproof"] = "codeproof"
    run_id: str | None = None
    title: str = ""
    language: str = ""
    request: str = ""
    provider: str = ""
    model: str = ""
    started_at: str | None = None
    finished_at: str | None = None
    duration_s: float = 0.0
    modules: list[ModuleReport] = Field(default_factory=list)
    usage: RunUsage = Field(default_factory=RunUsage)
    retrieved: list[Citation] = Field(default_factory=list)
    """The retrieved chunks the agents were given (empty without retrieval)."""
    project: ProjectResult | None = None
    """What a ``--project`` run changed in the project."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def totals(self) -> ReportTotals:
        mods = self.modules
        return ReportTotals(
            modules=len(mods),
            passed=sum(m.status == "passed" for m in mods),
            weak=sum(m.status == "weak" for m in mods),
            failed=sum(m.status == "failed" for m in mods),
            skipped=sum(m.status == "skipped" for m in mods),
            attempts=sum(m.attempts for m in mods),
            tests_total=sum(m.tests_total for m in mods),
            tests_passed=sum(m.tests_passed for m in mods),
            findings=sum(len(m.findings) for m in mods),
        )
