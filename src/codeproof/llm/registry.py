"""Provider registry: ``llm.provider`` → factory building a :class:`ChatModel`.

Factories import their SDK lazily so that an optional one (``anthropic``) is only
needed when chosen. ``FakeModel`` is deliberately absent: tests construct it.
"""

from __future__ import annotations

from collections.abc import Callable

from codeproof.core.config import Settings
from codeproof.core.errors import ConfigError
from codeproof.llm.base import ChatModel, ChatSettings
from codeproof.llm.cache import ResponseCache
from codeproof.llm.provider import BaseChatModel

Factory = Callable[[Settings], BaseChatModel]


def _defaults(settings: Settings) -> ChatSettings:
    return ChatSettings(temperature=settings.llm.temperature, max_tokens=settings.llm.max_tokens)


def _cache(settings: Settings) -> ResponseCache | None:
    return ResponseCache(settings.cache_db) if settings.llm.cache else None


def _local(settings: Settings) -> BaseChatModel:
    from codeproof.llm.local import LocalChatModel
    from codeproof.llm.models import ModelManager

    llm = settings.llm
    return LocalChatModel(
        model=llm.model,
        resolve=ModelManager(settings.models_dir).resolve,
        ctx_size=llm.ctx_size,
        slots=llm.slots,
        threads=llm.threads,
        speculative=llm.speculative,
        defaults=_defaults(settings),
        cache=_cache(settings),
    )


def _openai(settings: Settings) -> BaseChatModel:
    from codeproof.llm.openai_provider import OpenAIChatModel

    llm = settings.llm
    return OpenAIChatModel(
        model=llm.model,
        base_url=llm.base_url,
        api_key=llm.api_key,
        timeout_s=llm.timeout_s,
        slots=llm.slots,
        defaults=_defaults(settings),
        cache=_cache(settings),
        max_retries=llm.max_retries,
    )


def _anthropic(settings: Settings) -> BaseChatModel:
    try:
        from codeproof.llm.anthropic_provider import AnthropicChatModel
    except ImportError as exc:
        raise ConfigError(
            "the anthropic provider needs the 'anthropic' package",
            hint="pip install 'codeproof[anthropic]'",
        ) from exc
    llm = settings.llm
    return AnthropicChatModel(
        model=llm.model,
        base_url=llm.base_url,
        api_key=llm.api_key,
        timeout_s=llm.timeout_s,
        slots=llm.slots,
        defaults=_defaults(settings),
        cache=_cache(settings),
        max_retries=llm.max_retries,
    )


PROVIDERS: dict[str, Factory] = {
    "local": _local,
    "openai": _openai,
    "anthropic": _anthropic,
}


def get_chat_model(settings: Settings) -> BaseChatModel:
    """Build (not start) the configured provider.

    Raises:
        ConfigError: Unknown ``llm.provider``.
    """
    name = settings.llm.provider
    factory = PROVIDERS.get(name)
    if factory is None:
        raise ConfigError(
            f"unknown LLM provider {name!r}",
            hint=f"set llm.provider to one of: {', '.join(sorted(PROVIDERS))}",
        )
    return factory(settings)


__all__ = ["PROVIDERS", "ChatModel", "get_chat_model"]
