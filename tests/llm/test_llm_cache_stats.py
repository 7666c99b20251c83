"""Response cache, stats counters and retry policy of the shared provider base."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import BaseModel

from codeproof.core.errors import (
    AuthenticationError,
    ContextLengthError,
    ProviderResponseError,
    ProviderTimeoutError,
    ProviderUnreachableError,
)
from codeproof.llm.base import ChatSettings, Message, Usage
from codeproof.llm.cache import ResponseCache, cache_key
from codeproof.llm.fake import FakeModel
from codeproof.llm.hooks import is_transient
from codeproof.llm.pricing import cost_usd, price_per_million

MSGS = [Message(role="user", content="hi there")]


class Answer(BaseModel):
    value: int


@pytest.fixture
def cache(tmp_path: Path) -> ResponseCache:
    return ResponseCache(tmp_path / "cache.sqlite3")


def test_cache_key_covers_provider_model_messages_settings_and_schema() -> None:
    base = cache_key("local", "m", MSGS, ChatSettings())
    assert base == cache_key("local", "m", list(MSGS), ChatSettings())
    variants = [
        cache_key("openai", "m", MSGS, ChatSettings()),
        cache_key("local", "m2", MSGS, ChatSettings()),
        cache_key("local", "m", [Message(role="user", content="hi  there")], ChatSettings()),
        cache_key("local", "m", MSGS, ChatSettings(max_tokens=5)),
        cache_key("local", "m", MSGS, ChatSettings(), {"type": "object"}),
    ]
    assert len({base, *variants}) == 6


def test_repeat_call_is_a_hit_and_makes_no_request(cache: ResponseCache) -> None:
    fake = FakeModel(["forty two"], cache=cache)
    first = fake.chat(MSGS)
    second = fake.chat(MSGS)
    assert (first.cached, second.cached) == (False, True)
    assert second.text == "forty two" and second.cost_usd == 0.0
    assert len(fake.calls) == 1
    stats = fake.stats.snapshot()
    assert (stats.calls, stats.cache_hits, stats.cache_misses) == (2, 1, 1)
    assert stats.completion_tokens == 2  # the hit adds no tokens


def test_cache_persists_across_model_objects(cache: ResponseCache, tmp_path: Path) -> None:
    FakeModel(["stored"], cache=cache).chat(MSGS)
    again = FakeModel([], cache=ResponseCache(tmp_path / "cache.sqlite3"))
    assert again.chat(MSGS).text == "stored"
    assert again.calls == []


def test_an_unseeded_sample_is_never_cached(cache: ResponseCache) -> None:
    fake = FakeModel(["a", "b"], cache=cache)
    hot = ChatSettings(temperature=0.7)
    assert [fake.chat(MSGS, hot).text for _ in range(2)] == ["a", "b"]
    stats = fake.stats.snapshot()
    assert stats.cache_hits == stats.cache_misses == 0
    assert len(cache) == 0


def test_a_seeded_sample_is_cached_per_seed(cache: ResponseCache) -> None:
    """The same prompt with the same seed is the same sample: an identical rerun is free."""
    fake = FakeModel(["a", "b", "c"], cache=cache)
    one, two = ChatSettings(temperature=0.7, seed=1), ChatSettings(temperature=0.7, seed=2)
    assert [fake.chat(MSGS, s).text for s in (one, two, one, two)] == ["a", "b", "a", "b"]
    assert fake.remaining == 1 and fake.stats.snapshot().cache_hits == 2


def test_no_cache_object_means_every_call_reaches_the_model() -> None:
    fake = FakeModel(["a", "b"])
    assert [fake.chat(MSGS).text for _ in range(2)] == ["a", "b"]


def test_streamed_reply_is_cached_and_replayed(cache: ResponseCache) -> None:
    fake = FakeModel(["one two three"], cache=cache)
    assert "".join(fake.stream(MSGS)) == "one two three"
    replay = fake.stream(MSGS)
    assert "".join(replay) == "one two three"
    assert replay.response is not None and replay.response.cached
    assert len(fake.calls) == 1


def test_generate_is_cached_with_its_schema(cache: ResponseCache) -> None:
    fake = FakeModel(['{"value": 4}'], cache=cache)
    assert fake.generate(MSGS, Answer).value == 4
    assert fake.generate(MSGS, Answer).value == 4
    assert len(fake.calls) == 1


def test_stats_reset_returns_previous_values() -> None:
    fake = FakeModel(["x y", "z"])
    fake.chat(MSGS)
    old = fake.stats.reset()
    assert old.calls == 1 and old.total_tokens == 4
    fake.chat(MSGS)
    assert fake.stats.snapshot().calls == 1


@pytest.mark.parametrize(
    ("error", "transient"),
    [
        (ProviderUnreachableError("x", provider="p"), True),
        (ProviderTimeoutError("x", provider="p"), True),
        (ProviderResponseError("x", provider="p", status_code=429), True),
        (ProviderResponseError("x", provider="p", status_code=503), True),
        (ProviderResponseError("x", provider="p", status_code=400), False),
        (AuthenticationError("x", provider="p", status_code=401), False),
        (ContextLengthError("x", provider="p", status_code=400), False),
    ],
)
def test_retry_policy(error: Exception, transient: bool) -> None:
    assert is_transient(error) is transient


def _failing(errors: list[Exception], then: str) -> Callable[[list[Message]], str]:
    def reply(_: list[Message]) -> str:
        if errors:
            raise errors.pop(0)
        return then

    return reply


def test_transient_errors_are_retried() -> None:
    errors: list[Exception] = [
        ProviderUnreachableError("down", provider="fake"),
        ProviderResponseError("busy", provider="fake", status_code=503),
    ]
    fake = FakeModel(rules=[(lambda m: True, _failing(errors, "ok"))], max_retries=2)
    assert fake.chat(MSGS).text == "ok"
    assert fake.stats.snapshot().retries == 2


def test_auth_errors_are_not_retried() -> None:
    errors: list[Exception] = [AuthenticationError("bad key", provider="fake", status_code=401)]
    fake = FakeModel(rules=[(lambda m: True, _failing(errors, "ok"))], max_retries=3)
    with pytest.raises(AuthenticationError):
        fake.chat(MSGS)
    stats = fake.stats.snapshot()
    assert (stats.retries, stats.errors) == (0, 1)


def test_retries_give_up_after_max_retries() -> None:
    errors: list[Exception] = [ProviderTimeoutError("slow", provider="fake") for _ in range(5)]
    fake = FakeModel(rules=[(lambda m: True, _failing(errors, "ok"))], max_retries=2)
    with pytest.raises(ProviderTimeoutError):
        fake.chat(MSGS)
    assert len(fake.calls) == 3


def test_prices() -> None:
    assert price_per_million("local", "anything") == (0.0, 0.0)
    assert price_per_million("openai", "gpt-4o-mini-2024-07-18") == (0.15, 0.60)
    assert price_per_million("openai", "gpt-4o-2024-08-06") == (2.50, 10.00)
    usage = Usage(prompt_tokens=1_000_000, completion_tokens=500_000)
    assert cost_usd("anthropic", "claude-3-5-haiku-latest", usage) == pytest.approx(2.80)
    assert cost_usd("openai", "unknown-model", usage) == 0.0


def test_each_request_that_reaches_the_model_logs_its_cost_at_debug(
    caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    model = FakeModel(["one reply", "another"], cache=ResponseCache(tmp_path / "c.sqlite3"))
    asked = [Message(role="system", content="You plan how to implement it."), *MSGS]
    with caplog.at_level("DEBUG", logger="codeproof.llm.stats"):
        model.chat(asked)
        model.chat(asked)  # a cache hit reaches no model: no line
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("request")]
    assert len(lines) == 1
    assert lines[0].startswith("request 'You plan how to implement it.': ")
    assert "prompt tokens (0 reused)" in lines[0] and "completion tokens" in lines[0]
