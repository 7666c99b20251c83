"""The run report and each module's outcome: what a run hands back (pydantic models,
JSON-compatible; the JSON of `codeproof new --json` and of the server's report route)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, computed_field

from codeproof.core.grounding import Citation
from codeproof.core.proof import Proof
from codeproof.core.types import Module, TestReport

Severity = Literal["info", "low", "medium", "high"]
ModuleStatus = Literal["passed", "weak", "failed", "skipped"]
"""``passed``: the code passes its kept tests and the proof of those tests is at least
moderately strong, resting on no assumed answer; ``weak``: it passes them but the proof
is weak or rests on an answer nobody gave (``Proof.weaknesses`` says why); ``failed``:
it does not pass them; ``skipped``: not built (the run stopped)."""


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


SHOWN_MESSAGE = 160
"""Characters of a failing test's message a report keeps (its first line)."""


class FailingTest(BaseModel):
    """A kept test the chosen code fails, or a compile error that stopped every test."""

    __test__ = False  # not a pytest class

    name: str
    message: str = ""

    @classmethod
    def of(cls, report: TestReport) -> list[FailingTest]:
        """What the user reads first when a module did not pass: each failing test with
        the first line of its message, or the compiler's errors when no test ran."""
        failing = [cls(name=t.name, message=_first_line(t.message)) for t in report.failures]
        if failing or report.green:
            return failing
        where = [f"{d.file}:{d.line}" if d.line else d.file for d in report.diagnostics]
        return [
            cls(name=w, message=_first_line(d.message))
            for w, d in zip(where, report.diagnostics, strict=True)
        ]


def _first_line(text: str) -> str:
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= SHOWN_MESSAGE else line[: SHOWN_MESSAGE - 1] + "…"


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
    failing: list[FailingTest] = Field(default_factory=list)
    """The kept tests the chosen code fails (what made the module not pass)."""

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
            failing=FailingTest.of(rep) if rep else [],
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
