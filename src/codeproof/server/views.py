"""What the web page shows of a run, derived from its audit trail: each module's
attempts with their code, tests and diffs from the attempt before."""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import BaseModel, Field

from codeproof.workflow.store import Event


class DiffLine(BaseModel):
    kind: str
    """``add``, ``del``, ``hunk`` or ``same``."""
    text: str


class Attempt(BaseModel):
    number: int
    change: str
    passed: int
    total: int
    files: dict[str, str]
    tests: dict[str, str]
    diffs: dict[str, list[DiffLine]] = Field(default_factory=dict)
    """Per source file: the unified diff from the attempt before (changed files only)."""
    failing: list[dict[str, str]] = Field(default_factory=list)


class ModuleView(BaseModel):
    name: str
    attempts: list[Attempt] = Field(default_factory=list)


def diff(before: str, after: str, path: str) -> list[DiffLine]:
    """A unified diff as classified lines (empty when equal)."""
    lines: list[DiffLine] = []
    for line in difflib.unified_diff(
        before.splitlines(), after.splitlines(), f"a/{path}", f"b/{path}", lineterm="", n=2
    ):
        if line.startswith(("---", "+++")):
            continue
        kind = {"+": "add", "-": "del", "@": "hunk"}.get(line[:1], "same")
        lines.append(DiffLine(kind=kind, text=line))
    return lines


def _failing(report: dict[str, Any]) -> list[dict[str, str]]:
    cases = report.get("tests") or []
    return [
        {"name": str(c.get("name", "")), "message": str(c.get("message", ""))[:600]}
        for c in cases
        if c.get("outcome") not in ("passed", "skipped")
    ]


def attempts(events: list[Event]) -> list[ModuleView]:
    """Every module's test runs in order, each with its code and the diff from the last."""
    modules: dict[str, ModuleView] = {}
    for event in events:
        p = event.payload
        if event.kind != "node_end" or p.get("node") != "execute" or not p.get("module"):
            continue
        work = (p.get("output") or {}).get("work") or {}
        view = modules.setdefault(p["module"], ModuleView(name=p["module"]))
        files: dict[str, str] = work.get("files") or {}
        before = view.attempts[-1].files if view.attempts else {}
        report = work.get("report") or {}
        view.attempts.append(
            Attempt(
                number=int(work.get("attempts_total", len(view.attempts) + 1)),
                change=str(work.get("change", "")),
                passed=int(report.get("passed", 0)),
                total=int(report.get("total", 0)),
                files=files,
                tests=work.get("tests") or {},
                diffs={
                    path: diff(before.get(path, ""), text, path)
                    for path, text in files.items()
                    if view.attempts and before.get(path) != text
                },
                failing=_failing(report),
            )
        )
    return list(modules.values())
