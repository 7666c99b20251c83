"""A run's summary, derived from its audit trail (for ``runs show`` and the CLI)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from codeproof.core.proof import Proof
from codeproof.core.reports import FailingTest, RunUsage
from codeproof.core.types import TestReport
from codeproof.workflow.logic import usage_of
from codeproof.workflow.store import Event, RunInfo


class ModuleLine(BaseModel):
    """One module as the run last saw it."""

    name: str
    status: str = "pending"
    attempts: int = 0
    passed: int = 0
    total: int = 0
    findings: int = 0
    proof: str = ""
    """The proof's strength and mutation score (``strong (85%)``), once finished."""
    failing: list[FailingTest] = Field(default_factory=list)
    """The kept tests the chosen code fails, once finished."""
    assumed: list[str] = Field(default_factory=list)
    """The proof's questions ``--yes`` answered by default (``call -> answer``): where
    the drafts split, then where the code contradicts a designed test."""


class RunSummary(BaseModel):
    """Status, modules, attempts, tests and model usage of a run."""

    run: RunInfo
    modules: list[ModuleLine] = Field(default_factory=list)
    usage: RunUsage = Field(default_factory=RunUsage)
    replayed_calls: int = 0
    sandbox_runs: int = 0
    """Toolchain calls (test runs, probes), including those the result cache answered."""
    sandbox_cached: int = 0
    """Of those, answered from the result cache (an identical earlier run)."""
    decisions: int = 0
    project_dir: str | None = None


def _module_lines(events: Sequence[Event]) -> list[ModuleLine]:
    lines: dict[str, ModuleLine] = {}
    for event in events:
        if event.kind != "node_end":
            continue
        node, out = event.payload.get("node"), event.payload.get("output") or {}
        if node == "modules":
            lines = {m["name"]: ModuleLine(name=m["name"]) for m in out.get("checklist", [])}
        elif node == "execute" and event.payload.get("module") in lines:
            _apply_execute(lines[event.payload["module"]], out.get("work") or {})
        elif node == "finish":
            for outcome in out.get("outcomes", []):
                _apply_outcome(lines, outcome)
    return list(lines.values())


def _apply_execute(line: ModuleLine, work: dict[str, Any]) -> None:
    report = work.get("report") or {}
    line.status = "running"
    line.attempts = int(work.get("attempts_total", line.attempts))
    line.passed = int(report.get("passed", 0))
    line.total = int(report.get("total", 0))


def _apply_outcome(lines: dict[str, ModuleLine], outcome: dict[str, Any]) -> None:
    name = outcome["module"]["name"]
    report = outcome.get("report") or {}
    lines[name] = ModuleLine(
        name=name,
        status=outcome["status"],
        attempts=int(outcome.get("attempts", 0)),
        passed=int(report.get("passed", 0)),
        total=int(report.get("total", 0)),
        findings=len(outcome.get("scan", [])),
        proof=_proof_text(outcome.get("proof")),
        failing=FailingTest.of(TestReport.model_validate(report)) if report else [],
        assumed=_assumed(outcome.get("proof")),
    )


def _assumed(proof: Any) -> list[str]:
    if not isinstance(proof, dict):
        return []
    read = Proof.model_validate(proof)
    return [*read.assumptions, *read.kept_choices]


def _proof_text(proof: Any) -> str:
    if not isinstance(proof, dict):
        return ""
    score = (proof.get("mutation") or {}).get("score")
    strength = str(proof.get("strength", ""))
    return strength if score is None else f"{strength} ({score:.0%})"


def summarize(run: RunInfo, events: Sequence[Event]) -> RunSummary:
    """The summary of ``run`` from its events."""
    project = None
    tool_calls = [e for e in events if e.kind == "tool_call"]
    for event in events:
        if event.kind == "node_end" and event.payload.get("node") == "assemble":
            project = (event.payload.get("output") or {}).get("project_dir")
    return RunSummary(
        run=run,
        modules=_module_lines(events),
        usage=usage_of(events),
        replayed_calls=sum(1 for e in events if e.kind == "llm_call" and e.payload.get("replayed")),
        sandbox_runs=len(tool_calls),
        sandbox_cached=sum(1 for e in tool_calls if e.payload.get("cached")),
        decisions=sum(1 for e in events if e.kind == "decision"),
        project_dir=project,
    )
