"""The outcome of a choice among candidates (:func:`codeproof.choosing.selection.choose`):
what was chosen, the tests it is held to from now on, and the evidence, as one note for
the audit trail."""

from __future__ import annotations

from dataclasses import dataclass, field

from codeproof.choosing.examples import is_example_test
from codeproof.choosing.probing import Outputs
from codeproof.core.types import TestReport


@dataclass
class Choice:
    """The chosen candidate, with the tests it is held to from now on."""

    index: int
    files: dict[str, str]
    tests: dict[str, str]
    report: TestReport
    agreeing: int
    quarantined: list[str] = field(default_factory=list)
    reports: list[TestReport] = field(default_factory=list)
    output_agreement: list[int] = field(default_factory=list)
    probes: int = 0
    proposed: int = 0
    """Probes among ``probes`` that only the input designer proposed (none in a test)."""
    examples_met: list[int] = field(default_factory=list)
    example_checks: int = 0
    mutant_agreement: list[int] = field(default_factory=list)
    """Per candidate: agreement on the mutated inputs (:mod:`~codeproof.choosing.mutation`)."""
    mutants: int = 0
    contested: bool = False
    """Candidates passing the same tests as the chosen one disagree with it on some probe,
    and those that agree with it on every probe are not a majority of them."""
    unanimous: bool = False
    """At least :data:`.ladder.UNANIMOUS` candidates, all run, pass the same tests and give the
    same output on every probe: more drafts of the same kinds would not change the choice
    (a failing test is then disputed by all of them, not by the choice)."""
    lacking: dict[int, list[str]] = field(default_factory=dict)
    """Candidates (by index) lacking top-level names of the interface that another defines."""
    calls: list[str] = field(default_factory=list)
    """The probe calls the candidates ran (their outputs: ``outputs``, per candidate)."""
    outputs: list[Outputs] = field(default_factory=list)
    combined: dict[str, int] = field(default_factory=dict)
    """Functions the shipped code takes from other candidates (function -> candidate):
    the chosen candidate's composite (:mod:`codeproof.choosing.recombining`)."""
    blind: bool = False
    """Nothing tells the candidates apart (:func:`.ladder.blind`): more drafts would not change
    the choice either."""

    @property
    def examples_missed(self) -> int:
        """Stated examples the chosen candidate does not meet (as tests, or probed)."""
        names = {t.name for r in self.reports for t in r.tests if is_example_test(t.name)}
        names -= {n for n in names if any(o.startswith(f"{n}.") for o in names)}  # a file
        # that loaded for some candidate: its tests count, not another's error loading it
        met = {t.name for t in self.report.tests if t.outcome == "passed" and t.name in names}
        probed = self.example_checks - self.examples_met[self.index] if self.examples_met else 0
        return len(names - met) + probed

    @property
    def note(self) -> str:
        """A line for the audit trail: what was chosen and what was set aside."""
        passed = [r.passed for r in self.reports]
        text = (
            f"chose candidate {self.index} of {len(self.reports)} "
            f"(tests passed per candidate: {passed}; {self.agreeing} agree)"
        )
        if self.probes:
            inputs = f"{self.probes} test inputs"
            if self.proposed:
                tested = self.probes - self.proposed
                inputs = f"{self.probes} inputs ({tested} from the tests, {self.proposed} proposed)"
            text += (
                f"; outputs on {inputs} agree with the other candidates "
                f"{self.output_agreement} times"
            )
        if self.mutants:
            text += f"; on {self.mutants} mutated inputs (tie-break) {self.mutant_agreement} times"
        if self.example_checks:
            text += (
                f"; stated examples met per candidate: {self.examples_met} of {self.example_checks}"
            )
        if self.lacking:
            text += "; lacking the interface's " + ", ".join(
                f"{', '.join(names)} (candidate {i})" for i, names in self.lacking.items()
            )
        if self.quarantined:
            text += (
                f"; set aside {len(self.quarantined)} test(s) or assertion(s) that "
                f"contradict the agreeing candidates: " + "; ".join(self.quarantined)
            )
        if self.combined:
            given = ", ".join(f"{name} from candidate {i}" for name, i in self.combined.items())
            text += f"; shipped with {given} (meeting more stated examples)"
        return text
