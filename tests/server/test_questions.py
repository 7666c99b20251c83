"""Interrupt values describe themselves (kind, question, choices, default; the proof's
question too), the default is exactly what --yes answers, and answers are checked against
the question."""

from __future__ import annotations

import pytest
from srv_world import World

from codeproof.core.errors import InputError
from codeproof.core.types import Module
from codeproof.workflow.humans import AutoHuman, Pending, check_answer
from codeproof.workflow.models import (
    DECISION_TYPES,
    QUESTION_TYPES,
    AttemptRecord,
    ChoiceShown,
    ClarifyRequest,
    FailureReport,
    ModulesRequest,
    QuestionRequest,
)

SPEC = World()._spec([])
MODULE = Module(name="slugify", purpose="p", language="python", public_interface="slugify(t)")
QUESTIONS = {
    "clarify": ClarifyRequest(
        round=1, max_rounds=3, reply="Nice.", questions=["Unicode?", "Max length?"], assumptions=[]
    ),
    "modules": ModulesRequest(spec=SPEC, modules=[MODULE]),
    "escalation": FailureReport(
        spec=SPEC,
        module=MODULE,
        attempts=5,
        stuck=True,
        failing=[{"name": "test_a", "message": "boom"}],
        history=[AttemptRecord(attempt=1, change="initial", passed=0, total=1, code_hash="x")],
        likely_cause="a wrong regex",
        files={"slugify.py": "x"},
        tests={"test_slugify.py": "y"},
    ),
    "question": QuestionRequest(
        module="slugify",
        call="slugify('a - b')",
        question="`slugify('a - b')`: `'a-b'` (2 drafts) or `'a---b'` (1 draft)?",
        results=[
            ChoiceShown(value="'a-b'", shown="'a-b'", drafts=2),
            ChoiceShown(value="'a---b'", shown="'a---b'", drafts=1, chosen=True),
        ],
        suggested="'a-b'",
        number=1,
        limit=3,
    ),
}


@pytest.mark.parametrize("kind", QUESTIONS)
def test_every_question_describes_itself(kind):
    value = QUESTIONS[kind].model_dump(mode="json")
    assert value["kind"] == kind
    assert set(value) >= {"kind", "question", "choices", "default"}
    assert value["question"].strip()
    DECISION_TYPES[kind].model_validate(value["default"])  # the default is a valid answer
    again = QUESTION_TYPES[kind].model_validate(value).model_dump(mode="json")
    assert again == value  # a dumped value reads back (as from a checkpoint)


def test_the_question_texts_say_what_is_asked():
    clarify = QUESTIONS["clarify"]
    assert isinstance(clarify, ClarifyRequest)
    assert "1. Unicode?\n2. Max length?" in clarify.question and clarify.choices is None
    modules = QUESTIONS["modules"]
    assert isinstance(modules, ModulesRequest) and modules.choices == ["slugify"]
    report = QUESTIONS["escalation"]
    assert isinstance(report, FailureReport)
    assert "after 5 attempt(s) (stuck" in report.question and "a wrong regex" in report.question
    assert report.choices == ["react", "continue", "stop"]
    question = QUESTIONS["question"]
    assert isinstance(question, QuestionRequest)
    assert question.choices == ["'a-b'", "'a---b'"] and "(2 drafts)" in question.question


def test_yes_answers_the_default():
    auto = AutoHuman()
    answers = {
        "clarify": auto.clarify(QUESTIONS["clarify"]),  # type: ignore[arg-type]
        "modules": auto.select_modules(QUESTIONS["modules"]),  # type: ignore[arg-type]
        "escalation": auto.escalate(QUESTIONS["escalation"]),  # type: ignore[arg-type]
        "question": auto.answer(QUESTIONS["question"]),  # type: ignore[arg-type]
    }
    for kind, answer in answers.items():
        assert answer.model_dump(mode="json", exclude_none=True) == QUESTIONS[kind].default


def test_check_answer_names_the_field_and_shows_the_default():
    pending = Pending("r", "i", "escalation", QUESTIONS["escalation"].model_dump(mode="json"))
    assert check_answer(pending, {"action": "stop"}) == {"action": "stop"}
    with pytest.raises(InputError) as caught:
        check_answer(pending, {"action": "retry"})
    assert caught.value.message.startswith(
        "the answer does not fit the escalation question: action"
    )
    assert caught.value.hint == "answer like its default: {'action': 'continue'}"


def test_a_question_on_the_drafts_takes_a_value_and_refuses_an_empty_one():
    pending = Pending("r", "i", "question", QUESTIONS["question"].model_dump(mode="json"))
    assert check_answer(pending, {"value": "'a---b'"}) == {"value": "'a---b'"}
    with pytest.raises(InputError) as caught:
        check_answer(pending, {"value": ""})
    assert caught.value.message.startswith("the answer does not fit the question question: value")
    assert caught.value.hint == "answer like its default: {'value': \"'a-b'\"}"
