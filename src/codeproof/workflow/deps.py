"""What the graph's nodes need at run time, injected when the graph is built.

Nothing here is checkpointed: the model, the toolchain clients and the store are
rebuilt by ``resume``. Nodes reach the model only through :meth:`Deps.model_for`, which
wraps it in a :class:`~codeproof.workflow.recording.RecordingModel` (audit + replay).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from codeproof.core.config import Settings
from codeproof.core.grounding import Grounding
from codeproof.core.types import Module, Spec
from codeproof.engine.context import ContextFn, Memo
from codeproof.languages import registry
from codeproof.llm.base import ChatModel
from codeproof.toolchains.api import StartedToolchain
from codeproof.workflow.project import Project
from codeproof.workflow.recording import RecordingModel
from codeproof.workflow.store import RunStore


class Grounder(Protocol):
    """Retrieval for the planner, programmer and repairer (``codeproof.retrieval``)."""

    def ground(self, step: str, spec: Spec, module: Module | None, detail: str = "") -> Grounding:
        """The cited chunks for one step, as a fenced prompt section labelled as data.

        Args:
            step: ``modules``, ``plan``, ``code`` or ``repair``.
            spec: The specification.
            module: The module of the step (``None`` for ``modules``).
            detail: What else the step is about (the repairer's failures).
        """
        ...


ToolchainLike = StartedToolchain
"""The part of ``codeproof.toolchains.client.ToolchainClient`` the workflow uses."""


ToolchainFactory = Callable[[str], ToolchainLike]
"""Language -> a started toolchain client (the caller closes it)."""


class RunOptions(BaseModel):
    """Per-run choices, stored with the run so that ``resume`` behaves the same."""

    language: str | None = None
    out_dir: str
    auto: bool = False
    preselect: list[str] = Field(default_factory=list)
    max_attempts: int = Field(default=5, ge=1)
    on_failure: Literal["ask", "continue", "stop"] = "ask"
    max_clarify_rounds: int = Field(default=3, ge=0)
    candidates: int = Field(default=7, ge=1)
    """The most drafts the evidence ladder may write for one module."""
    probe_inputs: int = Field(default=8, ge=0)
    whole_draft: bool = True
    """Every module's first draft is its file of one call answering the whole request."""
    provider: str | None = None
    model: str | None = None
    retrieval: bool = False
    """Ground the agents in the retrieval index (resolved when the run starts)."""
    project: str | None = None
    """An existing project the run works in (``--project``)."""

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        *,
        out_dir: str,
        language: str | None = None,
        auto: bool = False,
        preselect: list[str] | None = None,
        on_failure: Literal["ask", "continue", "stop"] | None = None,
    ) -> RunOptions:
        """A run's options from the settings (flags already applied) and its own choices;
        ``--yes`` continues past failures unless ``on_failure`` says otherwise."""
        wf = settings.workflow
        return cls(
            language=language,
            out_dir=out_dir,
            auto=auto,
            preselect=preselect or [],
            max_attempts=wf.max_attempts,
            on_failure=on_failure or ("continue" if auto else wf.on_failure),
            max_clarify_rounds=wf.max_clarify_rounds,
            candidates=wf.candidates,
            probe_inputs=wf.probe_inputs,
            whole_draft=wf.whole_draft,
            provider=settings.llm.provider,
            model=settings.llm.model,
        )

    def answering_by_default(self) -> RunOptions:
        """These options with every later question answered by its default (``--yes``):
        a run that would ask about a failure continues past it instead."""
        on_failure = "continue" if self.on_failure == "ask" else self.on_failure
        return self.model_copy(update={"auto": True, "on_failure": on_failure})


@dataclass
class Deps:
    """Runtime objects of one run.

    Args:
        model: The chat model (any provider).
        toolchains: Factory of started toolchain clients.
        store: Run store (audit trail and replay memo).
        run_id: The run.
        options: The run's options.
        settings: All settings (timeouts...).
        context: Optional retrieval function for the programmer.
        grounder: Retrieval for the planner, programmer and repairer (takes precedence
            over ``context``); each use is recorded as a ``retrieval`` event.
        project: The existing project of a ``--project`` run.
        languages: Languages a toolchain serves (the first is the fallback).
    """

    model: ChatModel
    toolchains: ToolchainFactory
    store: RunStore
    run_id: str
    options: RunOptions
    settings: Settings
    context: ContextFn | None = None
    grounder: Grounder | None = None
    project: Project | None = None
    languages: tuple[str, ...] = field(default_factory=lambda: tuple(registry.names()))
    memos: dict[str, Memo] = field(default_factory=dict)
    """Per module: the sandbox runs already made (a run is never repeated)."""
    _clients: dict[str, ToolchainLike] = field(default_factory=dict)
    _seen_calls: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def model_for(self, scope: str) -> RecordingModel:
        """The model as seen by one node execution (calls audited and replayable)."""
        return RecordingModel(self.model, self.store, self.run_id, scope)

    def toolchain(self, language: str) -> ToolchainLike:
        """The started toolchain client of ``language`` (started once, shared)."""
        with self._lock:
            client = self._clients.get(language)
            if client is None:
                client = self.toolchains(language)
                self._clients[language] = client
                self._seen_calls[language] = len(client.calls)  # a client may be shared
            return client

    def record_tool_calls(self, language: str) -> None:
        """Append the client's tool calls made since the last time to the audit trail."""
        with self._lock:
            client = self._clients.get(language)
            if client is None:
                return
            calls = list(client.calls)
            start = self._seen_calls.get(language, 0)
            self._seen_calls[language] = len(calls)
        for call in calls[start:]:
            payload = call.model_dump(mode="json") if isinstance(call, BaseModel) else call
            if not isinstance(payload, Mapping):
                payload = {"call": str(payload)}
            self.store.add_event(self.run_id, "tool_call", {"language": language, **payload})

    def close(self) -> None:
        """Close every toolchain client started by this run."""
        with self._lock:
            clients, self._clients = list(self._clients.values()), {}
            self._seen_calls.clear()
        for client in clients:
            client.close()

    def ground(self, step: str, spec: Spec, module: Module | None, detail: str = "") -> str:
        """The retrieved context of one step ("" without a grounder); what it cites is
        recorded in the audit trail."""
        if self.grounder is None:
            return ""
        grounding = self.grounder.ground(step, spec, module, detail)
        if grounding.citations:
            self.store.add_event(
                self.run_id,
                "retrieval",
                {
                    "step": step,
                    "module": module.name if module else "",
                    "citations": [c.model_dump(mode="json") for c in grounding.citations],
                },
            )
        return grounding.text

    def project_sources(self) -> dict[str, str]:
        """The project's files every sandbox run gets (none without ``--project``)."""
        return self.project.sandbox_sources() if self.project is not None else {}

    def code_context(self) -> ContextFn | None:
        """The programmer's context: grounded when there is a grounder."""
        if self.grounder is None:
            return self.context
        return lambda spec, module: self.ground("code", spec, module)

    def event(
        self, event_kind: Literal["node_start", "node_end", "decision", "error"], /, **data: Any
    ) -> None:
        """Record one audit event."""
        self.store.add_event(self.run_id, event_kind, data)
