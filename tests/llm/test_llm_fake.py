"""FakeModel: scripting, recording, structured output and its re-ask, thread safety."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest
from pydantic import BaseModel

from codeproof.core.errors import ModelRequestForbiddenError, StructuredOutputError
from codeproof.llm.base import ChatModel, ChatSettings, Message
from codeproof.llm.fake import FakeModel, FakeScriptExhaustedError
from codeproof.llm.guard import ensure_real_requests_allowed, real_requests_allowed
from codeproof.llm.hooks import Completion, JsonSchema


class Plan(BaseModel):
    steps: list[str]


def _user(text: str) -> list[Message]:
    return [Message(role="user", content=text)]


def test_fake_is_a_chat_model() -> None:
    fake = FakeModel(["x"], slots=3)
    assert isinstance(fake, ChatModel)
    assert (fake.name, fake.model, fake.slots) == ("fake", "fake", 3)


def test_replies_are_consumed_in_order_and_recorded() -> None:
    fake = FakeModel(["one two", lambda msgs: msgs[-1].content.upper()])
    settings = ChatSettings(max_tokens=7)
    first = fake.chat(_user("hello world"), settings)
    second = fake.chat(_user("shout"))
    assert (first.text, second.text) == ("one two", "SHOUT")
    assert first.usage.prompt_tokens == 2 and first.usage.completion_tokens == 2
    assert [c.messages[-1].content for c in fake.calls] == ["hello world", "shout"]
    assert fake.calls[0].settings.max_tokens == 7
    assert fake.remaining == 0


def test_exhausted_script_raises_clearly() -> None:
    fake = FakeModel(["only"])
    fake.chat(_user("a"))
    with pytest.raises(FakeScriptExhaustedError, match="exhausted after 1 answered call"):
        fake.chat(_user("b"))


def test_rules_match_by_predicate_and_are_not_consumed() -> None:
    fake = FakeModel(
        [
            (lambda m: "plan" in m[-1].content, {"steps": ["a"]}),
            (lambda m: True, "fallback"),
        ]
    )
    assert fake.generate(_user("make a plan"), Plan) == Plan(steps=["a"])
    assert fake.generate(_user("plan again"), Plan) == Plan(steps=["a"])
    assert fake.chat(_user("other")).text == "fallback"


def test_generate_reasks_once_with_the_validation_error() -> None:
    fake = FakeModel(["not json", Plan(steps=["x", "y"])])
    assert fake.generate(_user("plan"), Plan).steps == ["x", "y"]
    assert len(fake.calls) == 2
    reask = fake.calls[1].messages
    assert reask[-2].role == "assistant" and reask[-2].content == "not json"
    assert "invalid" in reask[-1].content
    assert fake.calls[0].schema is not None and "steps" in fake.calls[0].schema["properties"]


def test_generate_raises_after_second_invalid_reply() -> None:
    fake = FakeModel(['{"steps": 3}', '{"wrong": true}'])
    with pytest.raises(StructuredOutputError) as info:
        fake.generate(_user("plan"), Plan)
    assert info.value.raw == '{"wrong": true}'
    assert info.value.provider == "fake"
    assert "steps" in info.value.schema
    assert "the model's plan was not valid twice (asked again once): steps:" in info.value.message


def test_generate_accepts_a_fenced_json_reply() -> None:
    fake = FakeModel(['```json\n{"steps": ["a"]}\n```'])
    assert fake.generate(_user("plan"), Plan).steps == ["a"]


def test_stream_yields_pieces_and_sets_response() -> None:
    fake = FakeModel(["alpha beta gamma"])
    stream = fake.stream(_user("go"))
    pieces = list(stream)
    assert "".join(pieces) == "alpha beta gamma"
    assert len(pieces) == 3
    assert stream.response is not None
    assert stream.response.usage.completion_tokens == 3
    assert fake.stats.snapshot().calls == 1


def test_fake_is_thread_safe() -> None:
    fake = FakeModel([str(i) for i in range(200)])
    seen: list[str] = []
    lock = threading.Lock()

    def worker() -> None:
        for _ in range(50):
            text = fake.chat(_user("n")).text
            with lock:
                seen.append(text)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen, key=int) == [str(i) for i in range(200)]
    assert len(fake.calls) == 200
    assert fake.stats.snapshot().calls == 200


def test_real_requests_are_forbidden_by_default_in_tests() -> None:
    assert not real_requests_allowed()
    with pytest.raises(ModelRequestForbiddenError, match="allow_model"):
        ensure_real_requests_allowed("local")


def test_allow_model_fixture_switches_on_for_one_test(allow_model: None) -> None:
    assert real_requests_allowed()
    ensure_real_requests_allowed("local")


class _CutFirst(FakeModel):
    """Its first reply stops at the token limit, as a greedy loop in a string does."""

    def _complete(
        self, messages: list[Message], settings: ChatSettings, schema: JsonSchema | None
    ) -> Completion:
        done = super()._complete(messages, settings, schema)
        return replace(done, finish_reason="length" if len(self.calls) == 1 else "stop")


def test_a_reply_cut_at_the_token_limit_is_asked_again_sampled_not_fed_back() -> None:
    fake = _CutFirst(['{"steps": ["aaaaaaaa', Plan(steps=["x"])])
    assert fake.generate(_user("plan"), Plan) == Plan(steps=["x"])
    first, second = fake.calls
    assert second.messages == first.messages  # the runaway text is not shown again
    assert second.settings is not None and first.settings is not None
    assert second.settings.temperature == 0.7 and second.settings.seed == 1
    assert first.settings.temperature == 0.0


class Spec(BaseModel):
    title: str
    requirements: list[str] = []
    examples: list[str] = []


GROWING = "".join(
    f'    "f([{", ".join(str(i) for i in range(1, n + 1))}]) -> true",\n' for n in range(1, 9)
)
LOOPED_SPEC = (
    '{\n  "title": "sums",\n  "requirements": ["adds, then rounds", "a \\"quoted\\" rule"],\n'
    '  "examples": [\n    "f([]) -> false",\n' + GROWING
)


def test_a_reply_stopped_in_a_loop_keeps_what_came_before_without_a_second_call() -> None:
    fake = _CutFirst([LOOPED_SPEC])
    spec = fake.generate(_user("spec"), Spec)
    assert spec == Spec(
        title="sums",
        requirements=["adds, then rounds", 'a "quoted" rule'],
        examples=["f([]) -> false"],  # the growing examples are the loop: all dropped
    )
    assert len(fake.calls) == 1


def test_a_loop_before_anything_valid_is_asked_again() -> None:
    looped_title = '{"title": "' + "ab" * 300
    fake = _CutFirst([looped_title, Spec(title="t")])
    assert fake.generate(_user("spec"), Spec) == Spec(title="t")
    assert len(fake.calls) == 2


def test_a_reply_cut_without_a_loop_is_asked_again_not_truncated() -> None:
    cut = '{"title": "t", "examples": ["a -> 1", "b -> 2", "c -> '
    fake = _CutFirst([cut, Spec(title="t", examples=["a -> 1", "b -> 2", "c -> 3"])])
    assert fake.generate(_user("spec"), Spec).examples == ["a -> 1", "b -> 2", "c -> 3"]
    assert len(fake.calls) == 2
