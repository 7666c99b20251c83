"""Exact per-task usage while tasks share one provider concurrently.

A provider's :class:`~codeproof.llm.stats.ModelStats` counts every call of every thread,
so a snapshot difference mixes tasks that run at the same time. :class:`MeteredModel`
is a per-task view of a provider: it sends requests through the provider's own request
hooks (same weights or connection, same response cache, same retry policy, same test
guard) but counts them in its own stats.
"""

from __future__ import annotations

from collections.abc import Iterator

from codeproof.llm.base import ChatSettings, Message
from codeproof.llm.hooks import Completion, JsonSchema, StreamChunk
from codeproof.llm.provider import BaseChatModel


class MeteredModel(BaseChatModel):
    """A view of ``inner`` with its own :attr:`stats`.

    Args:
        inner: The shared provider (started on first use, never closed by the view).
    """

    def __init__(self, inner: BaseChatModel) -> None:
        super().__init__(
            name=inner.name,
            model=inner.model,
            slots=inner.slots,
            defaults=inner.defaults,
            cache=inner.cache,
            max_retries=inner.max_retries,
            retry_wait_s=inner.retry_wait_s,
        )
        self.inner = inner

    def start(self) -> None:
        self.inner.start()

    def _before_request(self) -> None:
        # The provider applies its own guard (real models only) and starts itself.
        self.inner._before_request()

    def _complete(
        self, messages: list[Message], settings: ChatSettings, schema: JsonSchema | None
    ) -> Completion:
        return self.inner._complete(messages, settings, schema)

    def _stream(self, messages: list[Message], settings: ChatSettings) -> Iterator[StreamChunk]:
        return self.inner._stream(messages, settings)
