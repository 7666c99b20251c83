"""The domain types shared across packages: agents' structured outputs and toolchain
reports (pydantic models, JSON-compatible). The run report is in :mod:`.reports`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

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
    def failures(self) -> list[TestCase]:
        """The tests that failed or erred, in the report's order."""
        return [t for t in self.tests if t.outcome in ("failed", "error")]

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
