"""Pure helpers of the workflow: ordering, hashing, failure analysis, usage totals."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence

from codeproof.core.reports import RunUsage
from codeproof.core.types import SourceFile, TestReport
from codeproof.workflow.models import AttemptRecord
from codeproof.workflow.store import Event


def code_hash(files: dict[str, str]) -> str:
    """A stable hash of a set of files (path and content)."""
    blob = json.dumps(sorted(files.items()), separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def as_dict(files: Iterable[SourceFile]) -> dict[str, str]:
    """``path -> content`` of source files (a later file wins)."""
    return {f.path: f.content for f in files}


def failing_tests(report: TestReport) -> list[dict[str, str]]:
    """Name and message of every failed or erroring test (or the run's own message)."""
    failing = [{"name": t.name, "message": t.message[:2000]} for t in report.failures]
    if not failing and not report.green:
        detail = report.message or report.output[-2000:] or "no test ran"
        failing.append({"name": "(test run)", "message": detail})
    return failing


_IMPORT_ERROR = re.compile(
    r"ImportError|ModuleNotFoundError|SyntaxError|Cannot find module|SyntaxError|"
    r"ReferenceError|cannot find symbol|NameError",
)


def likely_cause(
    report: TestReport, history: Sequence[AttemptRecord], stuck: bool, *, has_tests: bool = True
) -> str:
    """A one-line guess at why a module stays red, from the last report and the history."""
    if not has_tests:
        return "the test designer wrote no tests: retry, or make the spec's examples clearer"
    if stuck:
        return (
            "the repairer returned identical code twice in a row: it does not know how to fix "
            "it; a hint or a hand edit is needed"
        )
    if report.timed_out:
        return "the tests time out: an infinite loop or a very slow algorithm"
    text = report.output + " ".join(t.message for t in report.tests) + report.message
    if report.total == 0 or _IMPORT_ERROR.search(text):
        return (
            "the tests cannot load the code (import, syntax or name error): file names or the "
            "public interface may not match what the tests expect"
        )
    passed = [h.passed for h in history]
    if len(passed) >= 2 and len(set(passed)) == 1:
        return (
            "no attempt changed the test results: the failing tests may contradict the spec, "
            "or the model cannot satisfy them"
        )
    return "some behaviour differs from what the tests expect; see the failing messages"


def usage_of(events: Iterable[Event], module: str | None = None) -> RunUsage:
    """Model usage of the run's paid LLM calls (replays are free), optionally one module's.

    A call belongs to a module when its scope (``node:module:...``) names it.
    """
    usage = RunUsage()
    for event in events:
        if event.kind != "llm_call" or event.payload.get("replayed"):
            continue
        scope = str(event.payload.get("scope", ""))
        if module is not None and scope.split(":")[1:2] != [module]:
            continue
        p = event.payload
        usage = usage + RunUsage(
            calls=1,
            cache_hits=1 if p.get("cached") else 0,
            prompt_tokens=int(p.get("prompt_tokens", 0)),
            completion_tokens=int(p.get("completion_tokens", 0)),
            cost_usd=float(p.get("cost_usd", 0.0)),
            latency_s=float(p.get("latency_s", 0.0)),
        )
    return usage
