"""Drive a run: start or resume the graph, answer interrupts, pause on failures.

A run pauses (status ``paused``, exit 1, still resumable) when the provider, the
structured output, the sandbox or a toolchain fails: the checkpoint keeps every
completed node and the replay memo every completed model call.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from langgraph.types import Command, Interrupt
from pydantic import BaseModel

from codeproof.agents import planner
from codeproof.core.config import Settings
from codeproof.core.errors import CodeproofError, InputError, WorkflowError
from codeproof.core.types import Module, Spec
from codeproof.engine.context import ContextFn
from codeproof.languages import registry
from codeproof.llm.base import ChatModel
from codeproof.workflow.deps import Deps, RunOptions, ToolchainFactory
from codeproof.workflow.graph import RECURSION_LIMIT, build_graph
from codeproof.workflow.models import (
    ClarifyAnswer,
    ClarifyRequest,
    EscalationDecision,
    FailureReport,
    ModuleSelection,
    ModulesRequest,
    WorkflowState,
)
from codeproof.workflow.store import RunStatus, RunStore, new_run_id

logger = logging.getLogger(__name__)


class Human(Protocol):
    """Whoever answers the workflow's questions (a terminal, a script, a test)."""

    def clarify(self, request: ClarifyRequest) -> ClarifyAnswer: ...

    def select_modules(self, request: ModulesRequest) -> ModuleSelection: ...

    def escalate(self, report: FailureReport) -> EscalationDecision: ...


class AutoHuman:
    """``--yes``: proceed on assumptions, accept the modules, continue past failures."""

    def clarify(self, request: ClarifyRequest) -> ClarifyAnswer:
        return ClarifyAnswer(proceed=True)

    def select_modules(self, request: ModulesRequest) -> ModuleSelection:
        return ModuleSelection(modules=request.modules)

    def escalate(self, report: FailureReport) -> EscalationDecision:
        return EscalationDecision(action="continue")


_ASK: dict[str, Callable[[Human, Any], BaseModel]] = {
    "clarify": lambda h, v: h.clarify(ClarifyRequest.model_validate(v)),
    "modules": lambda h, v: h.select_modules(ModulesRequest.model_validate(v)),
    "escalation": lambda h, v: h.escalate(FailureReport.model_validate(v)),
}
"""Interrupt kind -> how the human is asked."""


@dataclass(frozen=True)
class RunResult:
    """How a run ended (``done`` or ``failed`` after a stop)."""

    run_id: str
    status: RunStatus
    project_dir: str | None
    reason: str = ""


class Runner:
    """Starts and resumes runs.

    Args:
        settings: All settings.
        store: The run store (open).
        model: The chat model (the runner does not start or close it).
        toolchains: Factory of started toolchain clients (closed by the runner).
        human: Answers interrupts.
        context: The programmer's retrieval plug.
        languages: Languages a toolchain serves.
    """

    def __init__(
        self,
        settings: Settings,
        store: RunStore,
        model: ChatModel,
        toolchains: ToolchainFactory,
        human: Human,
        *,
        context: ContextFn | None = None,
        languages: tuple[str, ...] = (),
    ) -> None:
        self.settings = settings
        self.store = store
        self.model = model
        self.toolchains = toolchains
        self.human = human
        self.context = context
        self.languages = languages or tuple(registry.names())

    def start(
        self,
        request: str,
        options: RunOptions,
        run_id: str | None = None,
        *,
        spec: Spec | None = None,
        modules: Sequence[Module] = (),
    ) -> RunResult:
        """Create a run and drive it to its end (or a pause).

        A given ``spec`` skips the clarifying questions and the analysis; given ``modules``
        also skip their proposal (the graph starts at the first module).
        """
        run_id = run_id or new_run_id()
        self.store.create_run(run_id, request, options.out_dir, options.model_dump(mode="json"))
        initial: WorkflowState = {"request": request, "language": options.language}
        if spec is not None:
            initial["spec"] = spec.model_dump(mode="json")
            initial["intake_done"], initial["assumptions"] = True, []
        if spec is not None and modules:
            ordered = planner.order_modules(list(modules), language=spec.language, strict=True)
            initial["checklist"] = [m.model_dump(mode="json") for m in ordered]
            initial["current"], initial["outcomes"], initial["work"] = 0, [], {}
        return self._drive(run_id, options, initial)

    def resume(self, run_id: str) -> RunResult:
        """Continue a run from its last checkpoint.

        Raises:
            InputError: The run is finished or another process is running it.
        """
        info = self.store.get_run(run_id)
        if info.status == "done":
            raise InputError(f"run {info.id} is already done", hint=f"see {info.out_dir}")
        if info.status in ("running", "waiting") and not info.orphaned and info.pid != os.getpid():
            raise InputError(
                f"run {info.id} is still running (process {info.pid})",
                hint="wait for it, or stop that process first",
            )
        self.store.set_status(info.id, "running", claim=True)
        options = RunOptions.model_validate(info.options)
        return self._drive(info.id, options, None)

    def _drive(self, run_id: str, options: RunOptions, first: WorkflowState | None) -> RunResult:
        deps = Deps(
            model=self.model,
            toolchains=self.toolchains,
            store=self.store,
            run_id=run_id,
            options=options,
            settings=self.settings,
            context=self.context,
            languages=self.languages,
        )
        graph = build_graph(deps, self.store.checkpointer())
        config: Any = {"configurable": {"thread_id": run_id}, "recursion_limit": RECURSION_LIMIT}
        step: Any = first
        try:
            while True:
                for _ in graph.stream(step, config, stream_mode="updates", durability="sync"):
                    pass
                snapshot = graph.get_state(config)
                if not snapshot.interrupts:
                    return self._finish(run_id, snapshot.values)
                step = Command(resume=self._decide(deps, snapshot.interrupts[0]))
        except CodeproofError as exc:
            raise self._pause(deps, exc) from exc
        except KeyboardInterrupt:
            self.store.set_status(run_id, "paused", "interrupted")
            deps.event("error", error="KeyboardInterrupt", message="interrupted by the user")
            raise
        except Exception as exc:
            self.store.set_status(run_id, "failed", f"{type(exc).__name__}: {exc}")
            deps.event("error", error=type(exc).__name__, message=str(exc))
            raise
        finally:
            deps.close()

    def _finish(self, run_id: str, values: dict[str, Any]) -> RunResult:
        stopped = bool(values.get("stopped"))
        status: RunStatus = "failed" if stopped else "done"
        reason = "stopped by the user" if stopped else ""
        self.store.set_status(run_id, status, reason)
        return RunResult(run_id, status, values.get("project_dir"), reason)

    def _pause(self, deps: Deps, exc: CodeproofError) -> WorkflowError:
        run_id = deps.run_id
        self.store.set_status(run_id, "paused", exc.message)
        deps.event("error", error=type(exc).__name__, message=exc.message, hint=exc.hint)
        return WorkflowError(
            f"run {run_id} paused: {exc.message}; fix it, then `codeproof resume {run_id}`",
            run_id=run_id,
            hint=exc.hint,
        )

    def _decide(self, deps: Deps, pending: Interrupt) -> dict[str, Any]:
        """The human's answer to an interrupt (asked once; a recorded answer is reused)."""
        recorded = self.store.decision_for(deps.run_id, pending.id)
        if recorded is not None:
            return recorded
        value = pending.value
        kind = value.get("kind") if isinstance(value, dict) else None
        self.store.set_status(deps.run_id, "waiting")
        ask = _ASK.get(str(kind))
        if ask is None:
            raise WorkflowError(f"unknown interrupt {kind!r}", run_id=deps.run_id)
        decision = ask(self.human, value)
        self.store.set_status(deps.run_id, "running")
        answer = decision.model_dump(mode="json", exclude_none=True)
        deps.event("decision", interrupt_id=pending.id, kind=kind, value=answer)
        return answer
