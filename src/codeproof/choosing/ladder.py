"""Whether more drafts could change a choice among them: the ladder's stopping rules
(:mod:`codeproof.engine.policy`) read these off the last choice."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from codeproof.choosing.probing import Outputs
from codeproof.core.types import TestReport
from codeproof.languages.base import is_broken


def passed_names(report: TestReport) -> frozenset[str]:
    """The names of the tests ``report`` shows passing."""
    return frozenset(t.name for t in report.tests if t.outcome == "passed")


UNANIMOUS = 3
"""Fewest candidates whose full agreement settles what more drafts could add."""


def unanimous(
    reports: Sequence[TestReport], outputs: Sequence[Outputs], broken: Collection[str] = ()
) -> bool:
    """Whether every candidate ran, passed the same tests and gave the same outputs, none
    of them raising a ``broken`` error (the same bug in every draft settles nothing)."""
    if len(reports) < UNANIMOUS or len(outputs) != len(reports):
        return False
    if any(r.total == 0 for r in reports) or any(o is None for o in outputs):
        return False
    if any(is_broken(o, broken) for o in outputs[0] or ()):
        return False
    passed = {passed_names(r) for r in reports}
    return len(passed) == 1 and all(o == outputs[0] for o in outputs)


def blind(
    reports: Sequence[TestReport],
    agree: Sequence[int],
    tie: Sequence[int],
    checks: Sequence[object],
) -> bool:
    """Whether nothing can tell the candidates apart, so that more of them would not
    change the choice (the first is kept): three or more, no test ran on any of them
    (every designed test was set aside), no stated example to probe, and no two gave the
    same output on any probe or mutated input. java-business-calendar at ``a24819f``:
    its one designed test did not compile against any draft, and drafts 2 to 7 were
    drawn for four minutes, none ever chosen."""
    if len(reports) < UNANIMOUS or checks:
        return False
    return all(r.total == 0 for r in reports) and not any(agree) and not any(tie)


def contested(reports: Sequence[TestReport], outputs: Sequence[Outputs], index: int) -> bool:
    """Whether the candidates passing the chosen one's tests split on its outputs: those
    agreeing with it on every probe are no strict majority of them."""
    passed = passed_names(reports[index])
    peers = [
        i
        for i, report in enumerate(reports)
        if report.total > 0 and passed_names(report) == passed and outputs[i] is not None
    ]
    if outputs[index] is None or len(peers) < 2:
        return False
    same = sum(1 for i in peers if outputs[i] == outputs[index])
    return 2 * same <= len(peers)
