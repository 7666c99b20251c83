"""The ``anthropic`` provider (optional extra ``codeproof[anthropic]``).

System messages go to the ``system`` parameter. The Messages API of the supported SDK
takes no sampling parameters, so ``temperature``, ``top_p`` and ``seed`` are not sent.
Structured output uses the shared path: a schema instruction in the prompt, pydantic
validation, one repair re-ask.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import anthropic

from codeproof.errors import (
    AuthenticationError,
    LLMError,
    ProviderResponseError,
    ProviderTimeoutError,
    ProviderUnreachableError,
)
from codeproof.llm.base import ChatSettings, Message, Usage
from codeproof.llm.cache import ResponseCache
from codeproof.llm.provider import BaseChatModel, Completion, JsonSchema, StreamChunk

DEFAULT_BASE_URL = "https://api.anthropic.com"


def map_anthropic_error(exc: anthropic.AnthropicError, *, base_url: str) -> LLMError:
    """Convert an SDK exception into the codeproof error tree."""
    provider = "anthropic"
    if isinstance(exc, anthropic.APITimeoutError):
        return ProviderTimeoutError(
            f"no answer from {base_url} in time",
            provider=provider,
            hint="raise llm.timeout_s or lower llm.max_tokens",
        )
    if isinstance(exc, anthropic.APIConnectionError):
        return ProviderUnreachableError(
            f"cannot reach {base_url}",
            provider=provider,
            hint="check the network or set llm.base_url (CODEPROOF_LLM__BASE_URL)",
        )
    if isinstance(exc, anthropic.AuthenticationError | anthropic.PermissionDeniedError):
        return AuthenticationError(
            f"{base_url} rejected the API key",
            provider=provider,
            status_code=exc.status_code,
            hint="set llm.api_key (CODEPROOF_LLM__API_KEY) to a valid Anthropic key",
        )
    if isinstance(exc, anthropic.APIStatusError):
        return ProviderResponseError(
            f"{base_url} answered HTTP {exc.status_code}: {exc.message}",
            provider=provider,
            status_code=exc.status_code,
            hint="check llm.model and the request size",
        )
    return ProviderResponseError(
        f"unexpected reply from {base_url}: {exc}",
        provider=provider,
        hint="check llm.base_url",
    )


def split_system(messages: list[Message]) -> tuple[str | None, list[dict[str, str]]]:
    """Anthropic takes system text apart from the user/assistant turns."""
    system = "\n\n".join(m.content for m in messages if m.role == "system") or None
    turns = [{"role": m.role, "content": m.content} for m in messages if m.role != "system"]
    return system, turns


class AnthropicChatModel(BaseChatModel):
    """Chat over Anthropic's Messages API."""

    def __init__(
        self,
        *,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 300.0,
        slots: int = 2,
        defaults: ChatSettings | None = None,
        cache: ResponseCache | None = None,
        max_retries: int = 3,
        retry_wait_s: float = 0.5,
    ) -> None:
        super().__init__(
            name="anthropic",
            model=model,
            slots=slots,
            defaults=defaults,
            cache=cache,
            max_retries=max_retries,
            retry_wait_s=retry_wait_s,
        )
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        self._api_key = api_key
        self.timeout_s = timeout_s
        self._client: anthropic.Anthropic | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        with self._lock:
            if self._client is None:
                self._client = anthropic.Anthropic(
                    api_key=self._api_key,
                    base_url=self.base_url,
                    timeout=self.timeout_s,
                    max_retries=0,
                )

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    @property
    def client(self) -> anthropic.Anthropic:
        self.start()
        assert self._client is not None
        return self._client

    def _request(self, messages: list[Message], settings: ChatSettings) -> dict[str, Any]:
        system, turns = split_system(messages)
        body: dict[str, Any] = {
            "model": self.model,
            "messages": turns,
            "max_tokens": settings.max_tokens,
        }
        if system:
            body["system"] = system
        if settings.stop:
            body["stop_sequences"] = settings.stop
        return body

    def _complete(
        self, messages: list[Message], settings: ChatSettings, schema: JsonSchema | None
    ) -> Completion:
        try:
            reply = self.client.messages.create(**self._request(messages, settings))
        except anthropic.AnthropicError as exc:
            raise map_anthropic_error(exc, base_url=self.base_url) from exc
        text = "".join(block.text for block in reply.content if block.type == "text")
        usage = Usage(
            prompt_tokens=reply.usage.input_tokens, completion_tokens=reply.usage.output_tokens
        )
        return Completion(text, usage, reply.stop_reason)

    def _stream(self, messages: list[Message], settings: ChatSettings) -> Iterator[StreamChunk]:
        try:
            with self.client.messages.stream(**self._request(messages, settings)) as events:
                for text in events.text_stream:
                    yield StreamChunk(text)
                final = events.get_final_message()
        except anthropic.AnthropicError as exc:
            raise map_anthropic_error(exc, base_url=self.base_url) from exc
        usage = Usage(
            prompt_tokens=final.usage.input_tokens, completion_tokens=final.usage.output_tokens
        )
        yield StreamChunk(usage=usage, finish_reason=final.stop_reason)
