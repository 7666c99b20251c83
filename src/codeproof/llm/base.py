"""The ChatModel seam: one small protocol every provider implements.

A provider turns a list of :class:`Message` plus :class:`ChatSettings` into a
:class:`ChatResponse` (text, usage, latency, cost, cached flag), streams tokens, and
produces validated structured output via :meth:`ChatModel.generate`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Literal, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, Field

Role = Literal["system", "user", "assistant"]
T = TypeVar("T", bound=BaseModel)


class Message(BaseModel):
    """One chat message."""

    role: Role
    content: str


class ChatSettings(BaseModel):
    """Per-call generation settings (part of the cache key)."""

    temperature: float = 0.0
    max_tokens: int = 1024
    top_p: float | None = None
    seed: int | None = None
    stop: list[str] = Field(default_factory=list)


class Usage(BaseModel):
    """Token counts of one call, and where a provider reports them, how the engine spent
    them: prompt tokens reused from its prompt cache, and speculative draft tokens
    proposed and accepted."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    draft_tokens: int = 0
    draft_accepted: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class ChatResponse(BaseModel):
    """The result of one chat call."""

    text: str
    usage: Usage = Field(default_factory=Usage)
    latency_s: float = 0.0
    cost_usd: float = 0.0
    cached: bool = False
    provider: str = ""
    model: str = ""
    finish_reason: str | None = None


@runtime_checkable
class ChatModel(Protocol):
    """What every provider offers. Implementations must be thread-safe."""

    @property
    def name(self) -> str:
        """Provider name, e.g. ``local``."""
        ...

    @property
    def model(self) -> str:
        """Model identifier as the provider knows it."""
        ...

    @property
    def slots(self) -> int:
        """How many requests the provider serves concurrently."""
        ...

    @property
    def context_window(self) -> int | None:
        """Tokens one request may use, prompt and reply together; ``None`` when the
        provider does not say (a prompt that is too long is then its error)."""
        ...

    def chat(
        self, messages: Sequence[Message], settings: ChatSettings | None = None
    ) -> ChatResponse:
        """One completion."""
        ...

    def stream(
        self, messages: Sequence[Message], settings: ChatSettings | None = None
    ) -> Iterator[str]:
        """Yield text pieces as they are generated."""
        ...

    def generate(
        self,
        messages: Sequence[Message],
        schema: type[T],
        settings: ChatSettings | None = None,
    ) -> T:
        """A validated instance of ``schema`` (constrained decoding where supported)."""
        ...
