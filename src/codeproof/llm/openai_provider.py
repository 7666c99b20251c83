"""The ``openai`` provider: any OpenAI-compatible endpoint through the ``openai`` SDK.

Works with OpenAI itself and with local servers speaking the same API (llama.cpp
server, Ollama, vLLM, LM Studio). Structured output asks for
``response_format={"type": "json_schema", ...}`` and falls back to ``json_object``
when the server rejects it; the reply is then validated (and re-asked once) by the
shared base class.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from typing import Any

import openai

from codeproof.errors import (
    AuthenticationError,
    ContextLengthError,
    LLMError,
    ProviderResponseError,
    ProviderTimeoutError,
    ProviderUnreachableError,
)
from codeproof.llm.base import ChatSettings, Message, Usage
from codeproof.llm.cache import ResponseCache
from codeproof.llm.provider import BaseChatModel, Completion, JsonSchema, StreamChunk

logger = logging.getLogger(__name__)

NO_KEY = "sk-no-key"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: Error codes/types servers use for "prompt does not fit the context window".
CONTEXT_LENGTH_CODES = frozenset({"context_length_exceeded", "exceed_context_size_error"})


def map_openai_error(exc: openai.OpenAIError, *, base_url: str) -> LLMError:
    """Convert an SDK exception into the codeproof error tree."""
    provider = "openai"
    if isinstance(exc, openai.APITimeoutError):
        return ProviderTimeoutError(
            f"no answer from {base_url} in time",
            provider=provider,
            hint="raise llm.timeout_s, lower llm.max_tokens, or check the server load",
        )
    if isinstance(exc, openai.APIConnectionError):
        return ProviderUnreachableError(
            f"cannot reach {base_url}",
            provider=provider,
            hint=f"start the server at {base_url} or set llm.base_url "
            "(codeproof.toml or CODEPROOF_LLM__BASE_URL)",
        )
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return AuthenticationError(
            f"{base_url} rejected the API key",
            provider=provider,
            status_code=exc.status_code,
            hint="set llm.api_key (CODEPROOF_LLM__API_KEY) to a valid key",
        )
    if isinstance(exc, openai.APIStatusError):
        body = exc.body if isinstance(exc.body, dict) else {}
        kind = {str(exc.code or ""), str(body.get("type") or "")}
        if exc.status_code == 400 and kind & CONTEXT_LENGTH_CODES:
            return ContextLengthError(
                "the prompt and requested output exceed the model's context window",
                provider=provider,
                status_code=exc.status_code,
                hint="shorten the input, lower llm.max_tokens or raise the server's context size",
            )
        return ProviderResponseError(
            f"{base_url} answered HTTP {exc.status_code}: {exc.message}",
            provider=provider,
            status_code=exc.status_code,
            hint="check llm.model and the server logs",
        )
    return ProviderResponseError(
        f"unexpected reply from {base_url}: {exc}",
        provider=provider,
        hint="check that llm.base_url points at an OpenAI-compatible API",
    )


class OpenAIChatModel(BaseChatModel):
    """Chat over an OpenAI-compatible HTTP API.

    Args:
        model: Model name sent to the server.
        base_url: API root (``.../v1``); OpenAI's when ``None``.
        api_key: API key; a placeholder for local servers when ``None``.
        timeout_s: Per-request timeout.
        slots: Concurrency the server offers.
        defaults, cache, max_retries: See :class:`BaseChatModel`.
    """

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
            name="openai",
            model=model,
            slots=slots,
            defaults=defaults,
            cache=cache,
            max_retries=max_retries,
            retry_wait_s=retry_wait_s,
        )
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        self._api_key = api_key or NO_KEY
        self.timeout_s = timeout_s
        self._client: openai.OpenAI | None = None
        self._lock = threading.Lock()
        self._json_schema_ok = True

    def start(self) -> None:
        with self._lock:
            if self._client is None:
                self._client = openai.OpenAI(
                    api_key=self._api_key,
                    base_url=self.base_url,
                    timeout=self.timeout_s,
                    max_retries=0,  # retries are ours (tenacity), with our error policy
                )

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    @property
    def client(self) -> openai.OpenAI:
        self.start()
        assert self._client is not None
        return self._client

    def list_models(self, timeout_s: float = 5.0) -> list[str]:
        """Model ids the server offers (a cheap reachability check)."""
        try:
            page = self.client.with_options(timeout=timeout_s).models.list()
            return [m.id for m in page.data]
        except openai.OpenAIError as exc:
            raise map_openai_error(exc, base_url=self.base_url) from exc

    def _request(self, messages: list[Message], settings: ChatSettings) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [m.model_dump() for m in messages],
            "temperature": settings.temperature,
            "max_tokens": settings.max_tokens,
        }
        if settings.top_p is not None:
            body["top_p"] = settings.top_p
        if settings.seed is not None:
            body["seed"] = settings.seed
        if settings.stop:
            body["stop"] = settings.stop
        return body

    def _complete(
        self, messages: list[Message], settings: ChatSettings, schema: JsonSchema | None
    ) -> Completion:
        body = self._request(messages, settings)
        if schema is not None and self._json_schema_ok:
            fmt = {"name": str(schema.get("title") or "reply"), "schema": schema}
            try:
                return self._create(
                    {**body, "response_format": {"type": "json_schema", "json_schema": fmt}}
                )
            except ProviderResponseError as exc:
                if exc.status_code not in (400, 422):
                    raise
                logger.info("%s rejected json_schema output; using json_object", self.base_url)
                self._json_schema_ok = False
        if schema is not None:
            body["response_format"] = {"type": "json_object"}
        return self._create(body)

    def _create(self, body: dict[str, Any]) -> Completion:
        try:
            reply = self.client.chat.completions.create(**body)
        except openai.OpenAIError as exc:
            raise map_openai_error(exc, base_url=self.base_url) from exc
        choice = reply.choices[0]
        usage = Usage(
            prompt_tokens=reply.usage.prompt_tokens if reply.usage else 0,
            completion_tokens=reply.usage.completion_tokens if reply.usage else 0,
        )
        return Completion(choice.message.content or "", usage, choice.finish_reason)

    def _stream(self, messages: list[Message], settings: ChatSettings) -> Iterator[StreamChunk]:
        body = {
            **self._request(messages, settings),
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        try:
            events = self.client.chat.completions.create(**body)
            for event in events:
                usage = None
                if event.usage is not None:
                    usage = Usage(
                        prompt_tokens=event.usage.prompt_tokens,
                        completion_tokens=event.usage.completion_tokens,
                    )
                text, finish = "", None
                if event.choices:
                    text = event.choices[0].delta.content or ""
                    finish = event.choices[0].finish_reason
                yield StreamChunk(text, usage, finish)
        except openai.OpenAIError as exc:
            raise map_openai_error(exc, base_url=self.base_url) from exc
