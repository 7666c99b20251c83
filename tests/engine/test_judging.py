"""The judge's reading of a question's default: taken only when two orders agree."""

from __future__ import annotations

from codeproof.agents.judge import letter_index
from codeproof.core.proof import ProofQuestion, QuestionChoice
from codeproof.core.types import Module, Spec
from codeproof.engine.context import Context, EngineOptions
from codeproof.engine.judging import read_defaults
from codeproof.engine.state import Work
from codeproof.llm.base import ChatModel
from codeproof.llm.fake import FakeModel
from inproc import memory_python_toolchain

MODULE = Module(
    name="slugify", purpose="Make slugs.", language="python", public_interface="slugify(text)"
)
WORDS = "slugify(text): runs of non-alphanumeric characters become one hyphen"


def _question(default: str) -> ProofQuestion:
    return ProofQuestion(
        call="slugify('a - b')",
        choices=[
            QuestionChoice(value="'a---b'", drafts=2, chosen=True),
            QuestionChoice(value="'a-b'", drafts=1),
        ],
        default=default,
    )


def _read(model: FakeModel, question: ProofQuestion, **options: object) -> ProofQuestion:
    def direct(m: ChatModel, index: int, greedy: bool) -> dict[str, str]:
        raise AssertionError("no draft is written here")

    ctx = Context(
        spec=Spec(title="Slugify", summary="slugs", language="python"),
        module=MODULE,
        words=WORDS,
        toolchain=memory_python_toolchain(),
        model_for=lambda scope: model,
        direct=direct,
        options=EngineOptions(**options),  # type: ignore[arg-type]
    )
    return read_defaults(ctx, Work(), [question])[0]


def _by_answer(reads: str):  # type: ignore[no-untyped-def]
    def reply(messages: list[object]) -> str:
        for line in messages[-1].content.splitlines():  # type: ignore[attr-defined]
            if line[3:] == reads:
                return f"{line[0]})"
        return "none"

    return reply


def test_a_reading_in_both_orders_becomes_the_default() -> None:
    model = FakeModel(rules=[(lambda m: True, _by_answer("'a-b'"))])
    read = _read(model, _question("'a---b'"))
    assert read.default == "'a-b'" and read.read
    orders = [
        [line for line in c.messages[-1].content.splitlines() if line[1:3] == ") "]
        for c in model.calls
    ]
    assert orders == [["A) 'a---b'", "B) 'a-b'"], ["A) 'a-b'", "B) 'a---b'"]]
    assert WORDS in model.calls[0].messages[-1].content  # the user's words, never code


def test_a_pick_by_position_changes_nothing() -> None:
    model = FakeModel(rules=[(lambda m: True, "A")])  # always the first letter
    backed = _question("'a-b'")  # a test backs the chosen code's answer... of B here
    kept = _read(model, backed)
    assert kept == backed and len(model.calls) == 2


def test_a_reading_of_the_default_costs_one_call() -> None:
    model = FakeModel(rules=[(lambda m: True, _by_answer("'a---b'"))])
    question = _question("'a---b'")
    assert _read(model, question) == question and len(model.calls) == 1


def test_no_reading_without_a_letter_or_when_turned_off() -> None:
    question = _question("'a---b'")
    silent = FakeModel(rules=[(lambda m: True, "The request says")])
    assert _read(silent, question) == question and len(silent.calls) == 1
    off = FakeModel(rules=[(lambda m: True, "B")])
    assert _read(off, question, read_defaults=False) == question and not off.calls


def test_a_judge_always_naming_the_middle_of_three_answers_reads_nothing() -> None:
    question = ProofQuestion(
        call="slugify('a - b')",
        choices=[
            QuestionChoice(value="'a---b'", drafts=2, chosen=True),
            QuestionChoice(value="'a-b'", drafts=1),
            QuestionChoice(value="'a--b'", drafts=1),
        ],
        default="'a---b'",
    )
    model = FakeModel(rules=[(lambda m: True, "B")])  # reversed, the middle stays put
    assert _read(model, question) == question and len(model.calls) == 2


def test_letters_are_read_from_short_replies() -> None:
    assert letter_index("B", 2) == 1
    assert letter_index("**B**", 2) == 1
    assert letter_index(" A) 'x'", 3) == 0
    assert letter_index("C", 2) is None
    assert letter_index("b", 2) is None
    assert letter_index("", 2) is None
