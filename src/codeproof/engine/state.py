"""The module under construction: what the engine's steps read and write.

JSON values only (pydantic), so that the workflow can checkpoint it as it is and the
evaluation can keep it as the evidence of a task.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from codeproof.core.proof import Proof, ProofQuestion
from codeproof.core.types import TestReport

DraftSource = Literal["direct", "spec", "repair"]
"""Where a draft comes from: a completion of the user's own words as written, the
programmer's reading of the specification and plan, or a repair of an earlier choice."""


class Draft(BaseModel):
    """One candidate implementation of the module."""

    files: dict[str, str]
    source: DraftSource
    index: int
    """Position among the drafts of its source (0 = the greedy one)."""
    note: str = ""


class AttemptRecord(BaseModel):
    """What one attempt did and how the tests went."""

    attempt: int
    change: str
    passed: int
    total: int
    code_hash: str
    repaired: bool = False
    """Whether the attempt ran a repair's code (else a choice among drafts or a rerun)."""


class Best(BaseModel):
    """The attempt the module keeps: the one meeting most stated examples, then passing
    most of the same tests (a repair that breaks what passed is not the answer)."""

    files: dict[str, str]
    tests: dict[str, str]
    report: TestReport
    examples_missed: int
    attempt: int


class Work(BaseModel):
    """The module under construction (``state["work"]`` in the workflow).

    ``round`` grows each time the human reacts at an escalation (fresh attempt budget);
    ``attempt`` counts test runs of this round, ``attempts_total`` of every round.
    """

    round: int = 0
    attempt: int = 0
    attempts_total: int = 0
    conventions: str = ""
    plan: list[str] = Field(default_factory=list)
    files: dict[str, str] | None = None
    tests: dict[str, str] = Field(default_factory=dict)
    report: TestReport | None = None
    history: list[AttemptRecord] = Field(default_factory=list)
    stuck: bool = False
    hint: str | None = None
    hints: list[str] = Field(default_factory=list)
    change: str = "initial code"
    test_changes: list[str] = Field(default_factory=list)
    verdict: Literal["passed", "failed"] | None = None
    resume_at: Literal["plan", "execute", "repair"] | None = None
    """Where a reaction at the escalation continues."""

    examples: list[str] = Field(default_factory=list)
    """The examples the user stated for this module: ground truth, never set aside."""
    designed: dict[str, str] = Field(default_factory=dict)
    """The designed tests as written (before any set-aside), less the tests that repeat
    an earlier one but for their names (:func:`~codeproof.languages.test_edit.drop_repeated`)."""
    inputs: list[str] = Field(default_factory=list)
    """Probe inputs proposed by the input designer (asked once, when drafts disagree)."""
    drafts: list[Draft] = Field(default_factory=list)
    """Every draft of this round, in the order they were written."""
    rung: int = 0
    """How many times more drafts were drawn (the evidence ladder's rungs)."""
    chosen: int | None = None
    """The draft the last choice picked."""
    examples_missed: int = 0
    """Stated examples the current code does not meet."""
    choice: str = ""
    """The last choice's note (audit trail)."""
    contested: bool = False
    """Drafts passing the same tests as the choice split on its outputs (see
    :attr:`codeproof.choosing.selection.Choice.contested`): not settled yet."""
    unanimous: bool = False
    """The drafts of the last choice (three or more) agree on every test and every probe
    output (:attr:`codeproof.choosing.selection.Choice.unanimous`): more drafts would not
    change the choice, so none is drawn while they meet the stated examples."""
    blind: bool = False
    """Nothing told the drafts of the last choice apart: no test ran on any and no two
    agreed on any output (:attr:`codeproof.choosing.selection.Choice.blind`); more
    drafts would not change the choice either."""
    seen: list[str] = Field(default_factory=list)
    """Hashes of every code and test state run in this round (a repeat is stuck)."""
    repaired: bool = False
    """The current code is a repair (a later draw keeps it among the candidates)."""
    best: Best | None = None
    proof: Proof | None = None
    """The proof of the module's tests (:mod:`codeproof.engine.proving`)."""
    pending: list[ProofQuestion] = Field(default_factory=list)
    """Questions on the drafts' disagreements waiting for an answer."""
    answers: list[str] = Field(default_factory=list)
    """Answered questions as stated examples (``call -> value``): kept in every round."""
    told: list[str] = Field(default_factory=list)
    """The answers the person gave (not the defaults taken for nobody): the drafts written
    after them see them beside the request (:func:`answer_unmet`)."""
    informed: int = 0
    """How many of :attr:`told` the drafts drawn last were written with."""
    reprove: bool = False
    """Answers added checks the code meets: prove again with them."""
    killed: list[str] = Field(default_factory=list)
    """Hashes of the mutants the kept tests killed (more tests still kill them)."""


def answer_unmet(work: Work) -> bool:
    """The person gave an answer no draft was written with, and the code misses a stated
    example: one more rung of drafts written with the answers is due, beyond the
    ladder's size (the drafts so far never saw what the person said)."""
    return len(work.told) > work.informed and work.examples_missed > 0


def drafts_of(work: Work, source: DraftSource) -> list[Draft]:
    """The drafts of one source, in order."""
    return [d for d in work.drafts if d.source == source]
