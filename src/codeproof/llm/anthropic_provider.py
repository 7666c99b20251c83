"""The ``anthropic`` provider (optional extra ``codeproof[anthropic]``).

System messages go to the ``system`` parameter. The Messages API of the supported SDK
takes no sampling parameters, so ``temperature``, ``top_p`` and ``seed`` are not sent.
Structured output uses the shared path: a schema instruction in the prompt, pydantic
validation, one repair re-ask.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anthropic

from codeproof.llm.base import ChatSettings, Message, Usage
from codeproof.llm.hooks import Completion, JsonSchema, StreamChunk
from codeproof.llm.remote import ErrorHints, RemoteChatModel, SdkSpec

ANTHROPIC_SDK: SdkSpec[anthropic.Anthropic, anthropic.APIStatusError] = SdkSpec(
    provider="anthropic",
    default_base_url="https://api.anthropic.com",
    client=anthropic.Anthropic,
    error=anthropic.AnthropicError,
    timeout_error=anthropic.APITimeoutError,
    connection_error=anthropic.APIConnectionError,
    status_error=anthropic.APIStatusError,
    auth_errors=(anthropic.AuthenticationError, anthropic.PermissionDeniedError),
    hints=ErrorHints(
        timeout="raise llm.timeout_s or lower llm.max_tokens",
        unreachable="check the network or set llm.base_url (CODEPROOF_LLM__BASE_URL)",
        auth="set llm.api_key (CODEPROOF_LLM__API_KEY) to a valid Anthropic key",
        status="check llm.model and the request size",
        other="check llm.base_url",
    ),
    # The SDK fails with a bare TypeError when it has no key: send a placeholder, so
    # that a missing key is the server's 401 (an AuthenticationError with a fix).
    placeholder_key="no-key-configured",
)


def split_system(messages: list[Message]) -> tuple[str | None, list[dict[str, str]]]:
    """Anthropic takes system text apart from the user/assistant turns."""
    system = "\n\n".join(m.content for m in messages if m.role == "system") or None
    turns = [{"role": m.role, "content": m.content} for m in messages if m.role != "system"]
    return system, turns


class AnthropicChatModel(RemoteChatModel[anthropic.Anthropic, anthropic.APIStatusError]):
    """Chat over Anthropic's Messages API (arguments: see :class:`RemoteChatModel`)."""

    sdk = ANTHROPIC_SDK

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
        with self._sdk_errors():
            reply = self.client.messages.create(**self._request(messages, settings))
        text = "".join(block.text for block in reply.content if block.type == "text")
        usage = Usage(
            prompt_tokens=reply.usage.input_tokens, completion_tokens=reply.usage.output_tokens
        )
        return Completion(text, usage, reply.stop_reason)

    def _stream(self, messages: list[Message], settings: ChatSettings) -> Iterator[StreamChunk]:
        with (
            self._sdk_errors(),
            self.client.messages.stream(**self._request(messages, settings)) as events,
        ):
            for text in events.text_stream:
                yield StreamChunk(text)
            final = events.get_final_message()
        usage = Usage(
            prompt_tokens=final.usage.input_tokens, completion_tokens=final.usage.output_tokens
        )
        yield StreamChunk(usage=usage, finish_reason=final.stop_reason)
