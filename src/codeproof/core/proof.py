"""The proof of a module's tests: how strong the evidence that its code is right is
(mutation analysis, the checks the proof added, the questions on the drafts'
disagreements). Pydantic models, JSON-compatible; see docs/proof.md."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, computed_field

Strength = Literal["strong", "moderate", "weak", "unmeasured"]


class Mutation(BaseModel):
    """Mutation analysis of the chosen code against its kept tests (time-boxed).

    Mutants with the same outputs as the chosen code on every probe input look
    equivalent and are not counted; mutants with the same outputs as each other are one
    *behaviour*, run against the tests once. The score is the share of the behaviours run
    that some kept test tells apart from the chosen code.
    """

    generated: int = 0
    """Mutants the language's operators made."""
    sampled: int = 0
    """Mutants taken (at most the budget's count, spread over the operators)."""
    probed: int = 0
    """Mutants run on the probe inputs before the time box ended."""
    stillborn: int = 0
    """Mutants that did not compile or load."""
    equivalent: int = 0
    """Mutants with the chosen code's outputs on every probe input."""
    behaviours: int = 0
    """Distinct behaviours among the other mutants."""
    tested: int = 0
    """Behaviours run against the kept tests before the time box ended."""
    killed: int = 0
    """Behaviours the tests as chosen (designed and example tests) tell apart."""
    killed_by_checks: int = 0
    """Behaviours only the proof's added checks tell apart."""
    survivors: list[str] = Field(default_factory=list)
    """The mutants no kept test tells apart (one per behaviour)."""
    operators: dict[str, int] = Field(default_factory=dict)
    """Mutants taken per operator."""
    inputs: int = 0
    """Probe inputs the mutants were run on."""
    seconds: float = 0.0
    budget_s: float = 0.0
    timed_out: bool = False
    """The time box ended the analysis before every mutant was run."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def score(self) -> float | None:
        """Behaviours killed by the kept tests (added checks included) / behaviours run."""
        if not self.tested:
            return None
        return (self.killed + self.killed_by_checks) / self.tested

    @computed_field  # type: ignore[prop-decorator]
    @property
    def score_before(self) -> float | None:
        """The score of the tests as chosen, before the proof added checks."""
        return self.killed / self.tested if self.tested else None


class ProofCheck(BaseModel):
    """A check the proof added: ``call`` gives ``expected``."""

    call: str
    expected: str
    """As the probe prints it (a literal, or ``!ErrorName`` for a raised error)."""
    origin: Literal["agreement", "answer"]
    """From the chosen code where the drafts agree, or from an answered question."""
    kills: list[str] = Field(default_factory=list)
    """The surviving mutants it tells apart."""


class DisputedCheck(BaseModel):
    """A designed check that code contradicts: ``call`` was expected to give ``expected``
    (as the test writes it, or ``!ErrorName`` for an error it expects raised) and the code
    gives ``agreed`` (as the probe prints it: what the agreeing drafts give, for a check
    the choice set aside). A test written without seeing the code and drafts written
    without seeing the tests disagree here: the choice took the drafts' word, which is
    wrong about one time in seven in the stored runs, so a person is asked
    (:mod:`codeproof.engine.disputes`, :func:`codeproof.proof.questions.disputed`)."""

    call: str
    expected: str
    agreed: str
    note: str
    """The line of the audit trail (``test_m.py::test_f: f(2) == 5 (...)``)."""


class QuestionChoice(BaseModel):
    """One answer the drafts gave to a question."""

    value: str
    """As the probe prints it (``!ErrorName``: the call raises that error)."""
    drafts: int
    chosen: bool = False
    """The chosen code gives this answer."""
    tests: int = 0
    """Designed checks that expected this answer and were set aside because the drafts
    agree on another (:class:`DisputedCheck`)."""


class ProofQuestion(BaseModel):
    """An input on which the drafts return different results, and its answer."""

    call: str
    choices: list[QuestionChoice]
    default: str
    """What ``--yes`` answers: the answer most drafts gave (the chosen code's on a tie),
    or the one the judge read in the user's words (:attr:`read`)."""
    read: bool = False
    """Whether :attr:`default` is the answer read in the user's words (asked in two
    orders, both naming it) rather than what most drafts gave."""
    answer: str | None = None
    by: Literal["human", "default"] | None = None
    """Who answered: a person, or ``--yes``/the evaluation (then an assumption)."""

    @property
    def assumed(self) -> bool:
        return self.by == "default"

    @property
    def disputes_a_test(self) -> bool:
        """Whether it sets a designed check against the drafts (:class:`DisputedCheck`)
        rather than drafts against drafts."""
        return any(c.tests for c in self.choices)


class Proof(BaseModel):
    """How strong the evidence that a module's code is right is."""

    strength: Strength = "unmeasured"
    weaknesses: list[str] = Field(default_factory=list)
    """What keeps the proof from being strong, in words."""
    mutation: Mutation | None = None
    checks: int = 0
    """Checks (assertions) in the kept tests."""
    distinct_checks: int = 0
    """Of them, distinct ones (a check repeating another adds nothing)."""
    added: list[ProofCheck] = Field(default_factory=list)
    files: list[str] = Field(default_factory=list)
    """The test files the proof added (its generated checks)."""
    set_aside: list[str] = Field(default_factory=list)
    """Tests and checks set aside while choosing, and why."""
    questions: list[ProofQuestion] = Field(default_factory=list)
    drafts: int = 0
    """Drafts whose outputs were compared on the probe inputs: the chosen code and its
    peers (the drafts that pass every kept test it passes)."""
    drawn: int = 0
    """Distinct drafts drawn for the module (0 in reports written before it was kept)."""
    seconds: float = 0.0

    @property
    def assumptions(self) -> list[str]:
        """The answers ``--yes`` (or the evaluation) assumed where the drafts split, in
        words. Not the designed checks set aside for the drafts' word (:attr:`kept_choices`):
        the stored runs say the drafts are right there six times in seven, so they do not
        make the code ``weak`` (:func:`codeproof.proof.strength.status`)."""
        return [
            f"{q.call} -> {q.answer}"
            for q in self.questions
            if q.assumed and q.answer is not None and not q.disputes_a_test
        ]

    @property
    def kept_choices(self) -> list[str]:
        """The code's answers ``--yes`` kept over a designed check that expected another,
        in words (the CLI and the report list them so a person can check them)."""
        return [
            f"{q.call} -> {q.answer}"
            for q in self.questions
            if q.assumed and q.answer is not None and q.disputes_a_test
        ]
