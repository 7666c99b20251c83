"""What a provider's hooks return, and the stream a caller reads.

A provider implements :meth:`codeproof.llm.provider.BaseChatModel._complete` (returns a
:class:`Completion`) and :meth:`codeproof.llm.provider.BaseChatModel._stream` (yields
:class:`StreamChunk`); callers of ``stream`` read a :class:`ChatStream`.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from typing import Any

from codeproof.core.errors import (
    ProviderResponseError,
    ProviderTimeoutError,
    ProviderUnreachableError,
)
from codeproof.llm.base import ChatResponse, Usage

JsonSchema = dict[str, Any]
"""A JSON schema a provider may pass to the model to constrain its reply."""


@dataclass
class Completion:
    """What a provider hook returns for one request."""

    text: str
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None


@dataclass
class StreamChunk:
    """One piece of a streamed reply; the last chunk may carry usage only."""

    text: str = ""
    usage: Usage | None = None
    finish_reason: str | None = None


def is_transient(exc: BaseException) -> bool:
    """Whether a failure is worth retrying: unreachable, timeout, 429 or 5xx."""
    if isinstance(exc, ProviderUnreachableError | ProviderTimeoutError):
        return True
    if isinstance(exc, ProviderResponseError) and exc.status_code is not None:
        return exc.status_code == 429 or exc.status_code >= 500
    return False


class ChatStream(Iterator[str]):
    """An iterator of text pieces; :attr:`response` is set once it is exhausted."""

    def __init__(self, pieces: Iterator[str]) -> None:
        self._pieces = pieces
        self.response: ChatResponse | None = None

    def __iter__(self) -> ChatStream:
        return self

    def __next__(self) -> str:
        return next(self._pieces)

    def close(self) -> None:
        """Stop early; the provider stops generating and frees its slot."""
        if isinstance(self._pieces, Generator):
            self._pieces.close()
