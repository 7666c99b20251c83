"""Conformance suite: every ChatModel implementation passes the same tests.

Real providers run against ONE loaded 0.5B model: ``local`` in-process, ``openai`` and
``anthropic`` through the embedded llama.cpp server's OpenAI- and Anthropic-compatible
HTTP endpoints on loopback.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from pydantic import BaseModel

from codeproof.llm.anthropic_provider import AnthropicChatModel
from codeproof.llm.base import ChatModel, ChatSettings, Message
from codeproof.llm.fake import FakeModel
from codeproof.llm.local import LocalChatModel
from codeproof.llm.openai_provider import OpenAIChatModel
from codeproof.llm.provider import BaseChatModel

SETTINGS = ChatSettings(max_tokens=8)
PROMPT = [
    Message(role="system", content="Answer briefly."),
    Message(role="user", content="Say hello."),
]


class Person(BaseModel):
    name: str
    age: int


def _fake() -> FakeModel:
    return FakeModel(
        rules=[
            (lambda m: "JSON schema" in m[0].content, Person(name="Ada", age=36)),
            (lambda m: True, "Hello there, friend."),
        ]
    )


REAL = (pytest.mark.real_model, pytest.mark.slow)


@pytest.fixture(
    params=[
        "fake",
        pytest.param("local", marks=REAL),
        pytest.param("openai", marks=REAL),
        pytest.param("anthropic", marks=REAL),
    ]
)
def chat_model(request: pytest.FixtureRequest) -> Iterator[BaseChatModel]:
    if request.param == "fake":
        yield _fake()
        return
    request.getfixturevalue("allow_model")
    local: LocalChatModel = request.getfixturevalue("small_local_model")
    if request.param == "local":
        yield local
        return
    remote: BaseChatModel
    if request.param == "openai":
        remote = OpenAIChatModel(
            model=local.model, base_url=local.base_url, api_key=local.api_key, max_retries=0
        )
    else:
        remote = AnthropicChatModel(
            model=local.model,
            base_url=local.server.listening_address,
            api_key=local.api_key,
            max_retries=0,
        )
    with remote:
        yield remote


def test_is_a_chat_model(chat_model: BaseChatModel) -> None:
    assert isinstance(chat_model, ChatModel)
    assert chat_model.slots >= 1
    assert chat_model.name in {"fake", "local", "openai", "anthropic"}
    window = chat_model.context_window
    assert window is None or window >= 512
    if chat_model.name == "local":  # its window is split between the slots
        assert window == chat_model.ctx_size // chat_model.slots  # type: ignore[attr-defined]


def test_chat_returns_text_usage_and_metadata(chat_model: BaseChatModel) -> None:
    reply = chat_model.chat(PROMPT, SETTINGS)
    assert reply.text.strip()
    assert reply.usage.prompt_tokens > 0
    assert 0 < reply.usage.completion_tokens <= SETTINGS.max_tokens
    assert reply.provider == chat_model.name and reply.model == chat_model.model
    assert not reply.cached
    assert reply.latency_s > 0


def test_stream_yields_pieces_matching_the_final_response(chat_model: BaseChatModel) -> None:
    before = chat_model.stats.snapshot().calls
    stream = chat_model.stream(PROMPT, SETTINGS)
    pieces = list(stream)
    assert len(pieces) >= 2
    assert stream.response is not None
    assert stream.response.text == "".join(pieces)
    assert stream.response.usage.completion_tokens > 0
    assert chat_model.stats.snapshot().calls == before + 1


def test_generate_returns_a_validated_instance(chat_model: BaseChatModel) -> None:
    ask = [Message(role="user", content="Invent a person with a name and an age.")]
    person = chat_model.generate(ask, Person, ChatSettings(max_tokens=32))
    assert isinstance(person, Person)
    assert person.name


def test_two_concurrent_requests_both_complete(chat_model: BaseChatModel) -> None:
    replies: list[str] = []
    errors: list[BaseException] = []

    def one() -> None:
        try:
            replies.append(chat_model.chat(PROMPT, ChatSettings(max_tokens=6)).text)
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(replies) == 2 and all(r.strip() for r in replies)
