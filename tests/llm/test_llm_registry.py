"""Registry, provider construction from settings, and configuration errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeproof.core.config import load_settings
from codeproof.core.errors import ConfigError, ModelNotFoundError
from codeproof.llm.anthropic_provider import AnthropicChatModel
from codeproof.llm.llama_pool import POOL
from codeproof.llm.local import LocalChatModel
from codeproof.llm.openai_provider import NO_KEY, OpenAIChatModel
from codeproof.llm.registry import PROVIDERS, get_chat_model


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODEPROOF_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)


def test_registry_has_the_three_real_providers_and_no_fake() -> None:
    assert set(PROVIDERS) == {"local", "openai", "anthropic"}


def test_unknown_provider_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError) as info:
        get_chat_model(load_settings(llm={"provider": "nope"}))
    assert info.value.hint is not None
    for name in ("anthropic", "local", "openai"):
        assert name in info.value.hint


def test_local_provider_is_built_without_loading_anything() -> None:
    before = POOL.loaded()
    model = get_chat_model(load_settings(llm={"slots": 3, "ctx_size": 2048, "threads": 1}))
    assert isinstance(model, LocalChatModel)
    assert (model.name, model.model, model.slots) == ("local", "qwen2.5-coder-1.5b", 3)
    assert (model.ctx_size, model.threads) == (2048, 1)
    assert model.cache is not None and model.cache.path.name == "cache.sqlite3"
    assert not model.cache.path.exists()  # opened lazily
    assert POOL.loaded() == before


def test_local_provider_without_weights_names_the_pull_command(
    monkeypatch: pytest.MonkeyPatch, allow_model: None
) -> None:
    model = get_chat_model(load_settings(llm={"model": "qwen2.5-coder-0.5b"}))
    with pytest.raises(ModelNotFoundError) as info:
        model.chat([])
    assert info.value.hint == "codeproof models pull qwen2.5-coder-0.5b"


def test_local_check_finds_the_weights_without_loading_them(tmp_path: Path) -> None:
    weights = tmp_path / "tiny.gguf"
    weights.write_bytes(b"GGUF")
    asked: list[str] = []

    def resolve(spec: str) -> Path:
        asked.append(spec)
        return weights

    before = POOL.loaded()
    model = LocalChatModel(model="tiny", resolve=resolve)
    model.check()
    assert asked == ["tiny"]
    assert POOL.loaded() == before  # loading waits for a call the cache cannot answer


def test_local_check_without_weights_names_the_pull_command() -> None:
    model = get_chat_model(load_settings(llm={"model": "qwen2.5-coder-0.5b"}))
    with pytest.raises(ModelNotFoundError) as info:
        model.check()
    assert info.value.hint == "codeproof models pull qwen2.5-coder-0.5b"


def test_cache_can_be_switched_off() -> None:
    assert get_chat_model(load_settings(llm={"cache": False})).cache is None


def test_openai_provider_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODEPROOF_LLM__PROVIDER", "openai")
    monkeypatch.setenv("CODEPROOF_LLM__BASE_URL", "http://127.0.0.1:8080/v1/")
    model = get_chat_model(load_settings(llm={"model": "gpt-4o-mini", "max_tokens": 77}))
    assert isinstance(model, OpenAIChatModel)
    assert model.base_url == "http://127.0.0.1:8080/v1"
    assert model._api_key == NO_KEY
    assert model.defaults.max_tokens == 77


def test_anthropic_provider_settings() -> None:
    settings = load_settings(llm={"provider": "anthropic", "model": "claude-3-5-haiku-latest"})
    model = get_chat_model(settings)
    assert isinstance(model, AnthropicChatModel)
    assert model.model == "claude-3-5-haiku-latest"


def test_invalid_setting_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"llm\.slots"):
        load_settings(llm={"slots": "many"})
