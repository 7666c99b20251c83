"""Tests that do not compile: in a compiled language one test calling the interface
with a literal of the wrong type fails the compilation of its whole class, so that no
test runs for any candidate. The methods at fault are removed before the choice."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from codeproof.core.types import TestReport
from codeproof.languages import registry
from codeproof.languages.test_edit import remove_tests

logger = logging.getLogger(__name__)

RunTests = Callable[[dict[str, str], dict[str, str]], TestReport]
"""``(source files, test files) -> report``: one test run in the sandbox."""

PRUNE_ROUNDS = 3
"""Rounds of removing uncompiled tests (a report lists the compiler's first errors only)."""


def prune_uncompiled(
    run: RunTests,
    language: str,
    candidates: Sequence[dict[str, str]],
    tests: dict[str, str],
    reports: list[TestReport],
) -> tuple[dict[str, str], list[TestReport], list[str]]:
    """Remove the test methods that do not compile against most candidates, and run again.

    In a compiled language one test calling the interface with a literal of the wrong
    type fails the compilation of its whole class, so no test runs for any candidate and
    neither the choice nor the repairer learns anything from the tests. A method the
    compiler's errors point into for more than half of the candidates is the test's
    fault, not the code's: it is removed (and recorded), where at least two candidates
    say so. One draft is no majority: java-timesheet-payroll's one-call answer gave
    ``Timesheet`` a constructor ``(LocalDate day, double hours)`` the request never
    states, and the designed tests' ``new Timesheet()`` were removed as not compiling
    "against 1 of 1" before any draft with a no-argument constructor was written. Errors
    in a candidate's own files do not count.
    """
    finder = registry.language_for(language).editing.uncompiled_tests
    tried = sum(1 for files in candidates if files)
    notes: list[str] = []
    for _ in range(PRUNE_ROUNDS if finder and tried else 0):
        counts: dict[str, int] = {}
        for report in reports:
            if report.total == 0 and report.message:
                for name in finder(report.message, tests) if finder else []:
                    counts[name] = counts.get(name, 0) + 1
        broken = [n for n, count in counts.items() if count >= 2 and 2 * count > tried]
        kept, removed = remove_tests(language, tests, broken)
        if not removed:
            break
        logger.info("removed %d test(s) that do not compile: %s", len(removed), removed)
        notes += [f"{n} (does not compile against {counts[n]} of {tried})" for n in removed]
        tests = kept
        reports = [run(files, tests) if files and tests else TestReport() for files in candidates]
    return tests, reports, notes
