"""What the server's runs are made of: the settings, one started model shared by every
worker, the toolchain factory and the languages (the CLI's own parts, or test doubles)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from codeproof.core.config import Settings
from codeproof.engine.context import ContextFn
from codeproof.llm.base import ChatModel
from codeproof.workflow.deps import ToolchainFactory
from codeproof.workflow.runner import Runner
from codeproof.workflow.store import RunStore


@dataclass
class Engine:
    """Builds runners on the same model, toolchains and run store as ``codeproof new``.

    Args:
        settings: All settings.
        model: The started chat model (the server closes it at shutdown).
        toolchains: Language -> a started toolchain client (closed at the end of a run).
        languages: Languages a toolchain serves.
        context: The programmer's retrieval plug.
        on_close: Called once at shutdown (closes the model it started).
        on_interrupt: Called when the server stops: the model's requests in flight end
            at their next token (their runs continue at the next start), where a reply
            could otherwise hold the shutdown for minutes.
    """

    settings: Settings
    model: ChatModel
    toolchains: ToolchainFactory
    languages: tuple[str, ...]
    context: ContextFn | None = None
    on_close: Callable[[], None] = field(default=lambda: None)
    on_interrupt: Callable[[], None] = field(default=lambda: None)

    def close(self) -> None:
        self.on_close()

    def interrupt(self) -> None:
        self.on_interrupt()

    @property
    def workers(self) -> int:
        """Runs at once: ``server.workers``, or one per model slot."""
        return self.settings.server.workers or max(1, self.model.slots)

    def runner(self, store: RunStore) -> Runner:
        """A runner on ``store`` that never asks anyone (the server returns questions)."""
        return Runner(
            self.settings,
            store,
            self.model,
            self.toolchains,
            context=self.context,
            languages=self.languages,
        )


def production_engine(settings: Settings) -> Engine:
    """The configured provider (started here: a missing model fails before serving) and
    the MCP toolchains."""
    from codeproof.llm.registry import get_chat_model
    from codeproof.toolchains.client import started_toolchains  # MCP SDK
    from codeproof.toolchains.router import languages

    model = get_chat_model(settings)
    try:
        model.start()
    except BaseException:
        model.close()
        raise
    return Engine(
        settings,
        model,
        started_toolchains(settings),
        tuple(languages(settings)),
        on_close=model.close,
        on_interrupt=model.interrupt,
    )
