"""The ``openai`` provider: any OpenAI-compatible endpoint through the ``openai`` SDK.

Works with OpenAI itself and with local servers speaking the same API (llama.cpp
server, Ollama, vLLM, LM Studio). Structured output asks for
``response_format={"type": "json_schema", ...}`` and falls back to ``json_object``
when the server rejects it; the reply is then validated (and re-asked once) by the
shared base class.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import openai

from codeproof.core.errors import ContextLengthError, LLMError, ProviderResponseError
from codeproof.llm.base import ChatSettings, Message, Usage
from codeproof.llm.hooks import Completion, JsonSchema, StreamChunk
from codeproof.llm.remote import ErrorHints, RemoteChatModel, SdkSpec

logger = logging.getLogger(__name__)

NO_KEY = "sk-no-key"
#: Error codes/types servers use for "prompt does not fit the context window".
CONTEXT_LENGTH_CODES = frozenset({"context_length_exceeded", "exceed_context_size_error"})

OPENAI_SDK: SdkSpec[openai.OpenAI, openai.APIStatusError] = SdkSpec(
    provider="openai",
    default_base_url="https://api.openai.com/v1",
    client=openai.OpenAI,
    error=openai.OpenAIError,
    timeout_error=openai.APITimeoutError,
    connection_error=openai.APIConnectionError,
    status_error=openai.APIStatusError,
    auth_errors=(openai.AuthenticationError, openai.PermissionDeniedError),
    hints=ErrorHints(
        timeout="raise llm.timeout_s, lower llm.max_tokens, or check the server load",
        unreachable="start the server at {base_url} or set llm.base_url "
        "(codeproof.toml or CODEPROOF_LLM__BASE_URL)",
        auth="set llm.api_key (CODEPROOF_LLM__API_KEY) to a valid key",
        status="check llm.model and the server logs",
        other="check that llm.base_url points at an OpenAI-compatible API",
    ),
    placeholder_key=NO_KEY,  # the SDK refuses no key; local servers ignore it
)


class OpenAIChatModel(RemoteChatModel[openai.OpenAI, openai.APIStatusError]):
    """Chat over an OpenAI-compatible HTTP API (arguments: see :class:`RemoteChatModel`)."""

    sdk = OPENAI_SDK
    #: Set to ``False`` on an instance once its server rejects ``json_schema`` output.
    _json_schema_ok = True

    def _specific_status_error(self, exc: openai.APIStatusError) -> LLMError | None:
        body = exc.body if isinstance(exc.body, dict) else {}
        kind = {str(exc.code or ""), str(body.get("type") or "")}
        if exc.status_code == 400 and kind & CONTEXT_LENGTH_CODES:
            return ContextLengthError(
                "the prompt and requested output exceed the model's context window",
                provider=self.name,
                status_code=exc.status_code,
                hint="shorten the input, lower llm.max_tokens or raise the server's context size",
            )
        return None

    def list_models(self, timeout_s: float = 5.0) -> list[str]:
        """Model ids the server offers (a cheap reachability check)."""
        with self._sdk_errors():
            page = self.client.with_options(timeout=timeout_s).models.list()
            return [m.id for m in page.data]

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
        with self._sdk_errors():
            reply = self.client.chat.completions.create(**body)
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
        with self._sdk_errors():
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
