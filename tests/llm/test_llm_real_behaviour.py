"""Real-model behaviour beyond the conformance suite: cache, errors, early stop."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from codeproof.core.errors import (
    AuthenticationError,
    ContextLengthError,
    ModelRequestForbiddenError,
    ProviderUnreachableError,
)
from codeproof.llm.base import ChatSettings, Message
from codeproof.llm.cache import ResponseCache
from codeproof.llm.guard import set_real_requests_allowed
from codeproof.llm.llama_pool import POOL
from codeproof.llm.local import LocalChatModel
from codeproof.llm.openai_provider import OpenAIChatModel

pytestmark = [pytest.mark.real_model, pytest.mark.slow]

HELLO = [Message(role="user", content="Say hello.")]
TINY = ChatSettings(max_tokens=6)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_repeat_is_served_from_cache_without_a_request(
    small_local_model: LocalChatModel, small_model_path: Path, tmp_path: Path, allow_model: None
) -> None:
    loaded = len(POOL.loaded())
    cached = LocalChatModel(
        model=small_local_model.model,
        resolve=lambda _: small_model_path,
        ctx_size=small_local_model.ctx_size,
        slots=small_local_model.slots,
        cache=ResponseCache(tmp_path / "cache.sqlite3"),
    )
    first = cached.chat(HELLO, TINY)
    assert len(POOL.loaded()) == loaded  # shares the already loaded engine
    set_real_requests_allowed(False)  # a real request would now raise
    second = cached.chat(HELLO, TINY)
    assert (first.cached, second.cached) == (False, True)
    assert second.text == first.text
    with pytest.raises(ModelRequestForbiddenError):
        cached.chat([Message(role="user", content="Say bye.")], TINY)
    stats = cached.stats.snapshot()
    assert (stats.cache_hits, stats.cache_misses) == (1, 2)
    cached.close()


def test_server_down_is_unreachable_with_provider_and_fix(allow_model: None) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    model = OpenAIChatModel(model="m", base_url=url, max_retries=1, retry_wait_s=0.0)
    with pytest.raises(ProviderUnreachableError) as info:
        model.chat(HELLO, TINY)
    err = info.value
    assert err.provider == "openai"
    assert str(err).startswith("[openai] cannot reach")
    assert err.hint is not None and url in err.hint and "llm.base_url" in err.hint
    assert model.stats.snapshot().retries == 1


def test_wrong_key_is_an_authentication_error_not_retried(
    small_local_model: LocalChatModel, allow_model: None
) -> None:
    model = OpenAIChatModel(
        model="m", base_url=small_local_model.base_url, api_key="wrong", max_retries=3
    )
    with pytest.raises(AuthenticationError) as info:
        model.chat(HELLO, TINY)
    assert info.value.status_code == 401
    assert model.stats.snapshot().retries == 0


@pytest.mark.parametrize("via", ["local", "openai"])
def test_prompt_over_the_context_is_a_context_length_error(
    via: str, small_local_model: LocalChatModel, allow_model: None
) -> None:
    too_long = [Message(role="user", content="word " * 6000)]  # > 8192 / 2 slots
    model = small_local_model
    if via == "openai":
        model = OpenAIChatModel(
            model="m", base_url=small_local_model.base_url, api_key=small_local_model.api_key
        )
    with pytest.raises(ContextLengthError) as info:
        model.chat(too_long, TINY)
    assert info.value.provider == via


def test_abandoned_stream_frees_its_slot(
    small_local_model: LocalChatModel, allow_model: None
) -> None:
    stream = small_local_model.stream(HELLO, ChatSettings(max_tokens=32))
    first = next(stream)
    assert first
    stream.close()
    assert stream.response is None
    assert small_local_model.chat(HELLO, TINY).text


def test_ngram_speculation_and_the_prompt_cache_are_reported(
    small_model_path: Path, allow_model: None
) -> None:
    """llama.cpp's own counts reach the usage: draft tokens proposed and accepted by the
    n-gram speculation, and prompt tokens reused from the prompt cache."""
    model = LocalChatModel(
        model="qwen2.5-coder-0.5b",
        resolve=lambda _: small_model_path,
        ctx_size=2048,
        slots=1,
        speculative="ngram",
    )
    copy = [Message(role="user", content="Repeat exactly: " + "alpha beta gamma delta " * 6)]
    try:
        first = model.chat(copy, ChatSettings(max_tokens=32))
        second = model.chat(copy, ChatSettings(max_tokens=32))
    finally:
        model.close()
    assert first.usage.draft_tokens > 0
    assert 0 < first.usage.draft_accepted <= first.usage.draft_tokens
    assert second.usage.cached_prompt_tokens > 0  # the same prompt again: reused
    stats = model.stats.snapshot()
    assert stats.draft_tokens == first.usage.draft_tokens + second.usage.draft_tokens
    with pytest.raises(ValueError, match="speculative"):
        LocalChatModel(model="m", resolve=lambda _: small_model_path, speculative="eagle")


def test_a_decoding_loop_is_stopped_and_reported_cut(
    small_local_model: LocalChatModel, allow_model: None
) -> None:
    """The 0.5B model asked for 500 zeros loops on "0": the reply stops once the loop is
    plain (llm/loops.py), far below its token limit, with its usage from the timings."""
    ask = [Message(role="user", content="Print the digit 0 five hundred times, nothing else.")]
    reply = small_local_model.chat(ask, ChatSettings(temperature=0.0, max_tokens=600))
    assert reply.finish_reason == "length"
    assert set(reply.text.strip()) == {"0"}
    assert 0 < reply.usage.completion_tokens < 300
    assert reply.usage.prompt_tokens > 0
    normal = small_local_model.chat(HELLO, ChatSettings(temperature=0.0, max_tokens=32))
    assert normal.finish_reason in ("stop", "length") and normal.usage.prompt_tokens > 0
