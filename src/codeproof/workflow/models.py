"""Typed values exchanged with the human, and the checkpointed graph state.

The state holds JSON-compatible values only (pydantic models are dumped with
``model_dump(mode="json")``) so that checkpoints stay portable and safe to load.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from pydantic import BaseModel, Field, computed_field, model_validator

from codeproof.core.types import QA, Module, Spec
from codeproof.engine.state import AttemptRecord, Work

# -- resume values (what the human answers) ---------------------------------------------


class ClarifyAnswer(BaseModel):
    """Answers to the clarifying questions, or ``proceed`` on the stated assumptions."""

    answers: list[str] = Field(default_factory=list)
    proceed: bool = False

    @model_validator(mode="after")
    def _one_of(self) -> ClarifyAnswer:
        if not self.proceed and not any(a.strip() for a in self.answers):
            raise ValueError("give at least one answer or proceed=true")
        return self


class ModuleSelection(BaseModel):
    """The confirmed checklist: the proposed modules after deselect/rename/add/edit."""

    modules: list[Module] = Field(min_length=1)


EscalationAction = Literal["react", "continue", "stop"]


class EscalationDecision(BaseModel):
    """What to do with a module that exhausted its attempts.

    ``react`` applies the given edits (any combination, or none for a plain retry)
    and tries again with a fresh attempt budget; ``continue`` marks the module
    done-with-failures; ``stop`` ends the run after documenting what exists.
    """

    action: EscalationAction
    hint: str | None = None
    files: dict[str, str] | None = Field(
        default=None, description="Hand-edited source files (path -> full content)."
    )
    spec: Spec | None = None
    module: Module | None = None
    request: str | None = Field(default=None, description="An edited request (re-analyzed).")


class QuestionAnswer(BaseModel):
    """The expected result of a question's call: one of the choices' ``value`` as given,
    or a value typed as a literal of the module's language (``'a-b'``, ``[1, 2]``,
    ``raises ValueError``; text that is no literal is taken as a string)."""

    value: str = Field(min_length=1)


Decision = ClarifyAnswer | ModuleSelection | EscalationDecision | QuestionAnswer
InterruptKind = Literal["clarify", "modules", "escalation", "question"]
DECISION_TYPES: dict[str, type[BaseModel]] = {
    "clarify": ClarifyAnswer,
    "modules": ModuleSelection,
    "escalation": EscalationDecision,
    "question": QuestionAnswer,
}

# -- what the graph shows the human ------------------------------------------------------
#
# Every interrupt value describes itself: ``kind``, a ``question`` in plain words, the
# ``choices`` where the answer picks among some (``None`` for free text), and the
# ``default``, the answer ``--yes`` gives (AutoHuman answers exactly that).


class ClarifyRequest(BaseModel):
    """Intake questions for one round."""

    kind: Literal["clarify"] = "clarify"
    round: int
    max_rounds: int
    reply: str
    questions: list[str]
    assumptions: list[str]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def question(self) -> str:
        numbered = [f"{i}. {q}" for i, q in enumerate(self.questions, 1)]
        ask = "Answer each question, or proceed on the stated assumptions."
        return "\n".join([self.reply.strip(), *numbered, ask]).strip()

    @computed_field  # type: ignore[prop-decorator]
    @property
    def choices(self) -> list[str] | None:
        return None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def default(self) -> dict[str, Any]:
        return ClarifyAnswer(proceed=True).model_dump(mode="json")


class ModulesRequest(BaseModel):
    """The proposed modules, in dependency order."""

    kind: Literal["modules"] = "modules"
    spec: Spec
    modules: list[Module]
    changes: list[str] = Field(default_factory=list)
    """With ``--project``: the files each module would add or change."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def question(self) -> str:
        return (
            f"Build these {len(self.modules)} module(s)? Keep, drop, rename, edit or add "
            "modules, then confirm the list."
        )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def choices(self) -> list[str] | None:
        return [m.name for m in self.modules]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def default(self) -> dict[str, Any]:
        return ModuleSelection(modules=self.modules).model_dump(mode="json")


class FailureReport(BaseModel):
    """Shown at escalation: why a module could not be made green."""

    kind: Literal["escalation"] = "escalation"
    spec: Spec
    module: Module
    attempts: int
    stuck: bool
    failing: list[dict[str, str]]
    history: list[AttemptRecord]
    likely_cause: str
    files: dict[str, str]
    tests: dict[str, str]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def question(self) -> str:
        stuck = " (stuck: the same code twice)" if self.stuck else ""
        return (
            f"Module {self.module.name} still fails after {self.attempts} attempt(s){stuck}; "
            f"likely cause: {self.likely_cause}. React (retry, with a hint or edits), "
            "continue (keep it as failed) or stop the run?"
        )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def choices(self) -> list[str] | None:
        return ["react", "continue", "stop"]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def default(self) -> dict[str, Any]:
        return EscalationDecision(action="continue").model_dump(mode="json", exclude_none=True)


class ChoiceShown(BaseModel):
    """One answer the drafts gave to a question."""

    value: str
    """What to answer to pick it (as the probe printed it)."""
    shown: str
    """How a person reads it (``raises ValueError`` for ``!ValueError``)."""
    drafts: int
    """How many distinct drafts return it."""
    chosen: bool = False
    """The chosen code returns it."""
    tests: int = 0
    """How many designed checks expected it (set aside: the drafts agree on another)."""
    backing: str = ""
    """Who gives it, in words (``2 drafts``, ``a designed test``)."""


class QuestionRequest(BaseModel):
    """An input on which the drafts return different results, or on which a designed
    test and the drafts do (the test was set aside): what should it give?

    ``question`` is the whole question in words, ``results`` say how many drafts gave
    each answer and which one the chosen code gives, ``suggested`` is what most drafts
    give (the chosen code's on a tie), or the answer a model call read in the request
    where it named one in two orders. ``choices`` are the results' values and
    ``default`` answers the suggested one (what ``--yes`` answers); any other value typed
    as a literal is an answer too. The answer (:class:`QuestionAnswer`) becomes a stated
    example of the module, never set aside.
    """

    kind: Literal["question"] = "question"
    module: str
    call: str
    question: str
    results: list[ChoiceShown]
    suggested: str
    number: int
    """This question's number among the module's questions (1-based)."""
    limit: int
    """Questions per module at most."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def choices(self) -> list[str] | None:
        return [r.value for r in self.results]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def default(self) -> dict[str, Any]:
        return QuestionAnswer(value=self.suggested).model_dump(mode="json")


Question = ClarifyRequest | ModulesRequest | FailureReport | QuestionRequest
QUESTION_TYPES: dict[str, type[Question]] = {
    "clarify": ClarifyRequest,
    "modules": ModulesRequest,
    "escalation": FailureReport,
    "question": QuestionRequest,
}
"""Interrupt kind -> the value the graph shows (``DECISION_TYPES``: what it accepts)."""


# -- checkpointed state --------------------------------------------------------------------


class WorkflowState(TypedDict, total=False):
    """The graph state (JSON values only).

    Run-level keys are set once; ``work`` holds the module under construction and is
    replaced when the next module starts. ``tests`` and ``candidates`` are written by
    the two parallel branches (separate keys, so the fan-in needs no reducer); the test
    branch also writes ``probe_inputs``, the input designer's edge-case calls, and the
    first module's code branch ``whole``: the files of the one call answering the whole
    request, from which every module's first draft is taken.
    """

    request: str
    language: str | None
    preselect: list[str]
    answers: list[dict[str, str]]
    assumptions: list[str]
    clarify_round: int
    intake_done: bool
    spec: dict[str, Any]
    checklist: list[dict[str, Any]]
    current: int
    work: dict[str, Any]
    tests: list[dict[str, Any]]
    candidates: list[list[dict[str, Any]]]
    whole: dict[str, str] | None
    probe_inputs: list[str]
    outcomes: list[dict[str, Any]]
    docs: dict[str, Any]
    stopped: bool
    out_dir: str
    project_dir: str


__all__ = [
    "DECISION_TYPES",
    "QA",
    "QUESTION_TYPES",
    "AttemptRecord",
    "ClarifyAnswer",
    "ClarifyRequest",
    "Decision",
    "EscalationDecision",
    "FailureReport",
    "InterruptKind",
    "ModuleSelection",
    "ModulesRequest",
    "Question",
    "QuestionAnswer",
    "QuestionRequest",
    "Work",
    "WorkflowState",
]
