"""Drive a run: start or resume the graph, answer interrupts, pause on failures.

A run pauses (status ``paused``, exit 1, still resumable) when the provider, the
structured output, the sandbox or a toolchain fails: the checkpoint keeps every
completed node and the replay memo every completed model call.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from langgraph.types import Command, Interrupt, StateSnapshot

from codeproof.agents import planner
from codeproof.core.config import Settings
from codeproof.core.errors import CodeproofError, InputError, WorkflowError
from codeproof.core.types import Module, Spec
from codeproof.engine.context import ContextFn
from codeproof.languages import registry
from codeproof.llm.base import ChatModel
from codeproof.workflow.deps import Deps, Grounder, RunOptions, ToolchainFactory
from codeproof.workflow.graph import RECURSION_LIMIT, workflow_graph
from codeproof.workflow.humans import Human, Pending, ask, check_answer
from codeproof.workflow.models import QUESTION_TYPES, WorkflowState
from codeproof.workflow.project import Project
from codeproof.workflow.store import RunStatus, RunStore, new_run_id

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunResult:
    """How a run ended (``done`` or ``failed`` after a stop; ``paused`` when told to)."""

    run_id: str
    status: RunStatus
    project_dir: str | None
    reason: str = ""


StepFn = Callable[[str, Any], None]
"""Called with ``(stream mode, chunk)`` for everything the graph streams."""
StopFn = Callable[[], bool]
"""Asked after each streamed chunk; ``True`` pauses the run there (a cancel)."""


class Runner:
    """Starts and resumes runs.

    Args:
        settings: All settings.
        store: The run store (open).
        model: The chat model (the runner does not start or close it).
        toolchains: Factory of started toolchain clients (closed by the runner).
        human: Answers interrupts (``None``: only :meth:`advance`, which never asks).
        context: The programmer's retrieval plug.
        grounder: Retrieval for the planner, programmer and repairer.
        project: The existing project of a ``--project`` run.
        languages: Languages a toolchain serves.
    """

    def __init__(
        self,
        settings: Settings,
        store: RunStore,
        model: ChatModel,
        toolchains: ToolchainFactory,
        human: Human | None = None,
        *,
        context: ContextFn | None = None,
        grounder: Grounder | None = None,
        project: Project | None = None,
        languages: tuple[str, ...] = (),
    ) -> None:
        self.settings = settings
        self.store = store
        self.model = model
        self.toolchains = toolchains
        self.human = human
        self.context = context
        self.grounder = grounder
        self.project = project
        self.languages = languages or tuple(registry.names())
        self._compiled: Any = None
        self._lock = threading.Lock()

    def create(self, request: str, options: RunOptions, run_id: str | None = None) -> str:
        """Record a new run (nothing runs yet); its id."""
        run_id = run_id or new_run_id()
        self.store.create_run(run_id, request, options.out_dir, options.model_dump(mode="json"))
        return run_id

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
        run_id = self.create(request, options, run_id)
        initial: WorkflowState = {"request": request, "language": options.language}
        if spec is not None:
            initial["spec"] = spec.model_dump(mode="json")
            initial["intake_done"], initial["assumptions"] = True, []
        if spec is not None and modules:
            ordered = planner.order_modules(list(modules), language=spec.language, strict=True)
            initial["checklist"] = [m.model_dump(mode="json") for m in ordered]
            initial["current"], initial["outcomes"], initial["work"] = 0, [], {}
        return self._drive(run_id, options, initial)

    def resume(self, run_id: str, *, options: RunOptions | None = None) -> RunResult:
        """Continue a run from its last checkpoint, with ``options`` from here on when
        given (``resume --yes``: stored with the run), else with its stored ones.

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
        if options is None:
            options = RunOptions.model_validate(info.options)
        else:
            self.store.set_options(info.id, options.model_dump(mode="json"))
        return self._drive(info.id, options, None)

    def advance(
        self,
        run_id: str,
        answer: Any = None,
        *,
        answer_to: str | None = None,
        on_step: StepFn | None = None,
        modes: Sequence[str] = ("updates",),
        stop: StopFn | None = None,
    ) -> RunResult | Pending:
        """Run from the last checkpoint to the next question or the end, and return.

        The first call starts the run from its request; later calls continue where it
        stopped (after a question, a pause, a crash or ``kill -9``). ``answer`` answers
        the pending question; with ``answer_to`` (an interrupt id) only if that question is
        still pending, else the run just continues (an answer already taken before a crash
        is not given twice). Nobody is asked anything: a question is returned.

        Raises:
            InputError: An answer without a pending question, or one that does not fit.
            WorkflowError: The run paused (provider, sandbox or toolchain failure).
        """
        info = self.store.get_run(run_id)
        options = RunOptions.model_validate(info.options)
        with self._graph(info.id, options) as (deps, graph, config):
            step: Any = None
            if answer is not None:
                value = self._accept(deps, graph.get_state(config), answer, answer_to)
                step = None if value is None else Command(resume=value)
            elif not graph.get_state(config).created_at:  # not started yet
                step = {"request": info.request, "language": options.language}
            self.store.set_status(info.id, "running", claim=True)
            return self._segment(deps, graph, config, step, on_step, modes, stop)

    def _accept(
        self, deps: Deps, snapshot: Any, answer: Any, answer_to: str | None
    ) -> dict[str, Any] | None:
        """Check ``answer`` against the pending question and record it (once); ``None``
        when it answers a question (``answer_to``) that is no longer pending."""
        pending = self._pending(deps, snapshot.interrupts)
        if answer_to is not None and (pending is None or pending.interrupt_id != answer_to):
            return None
        if pending is None:
            raise InputError(
                f"run {deps.run_id} is not waiting for an answer",
                hint="answer only while a question is pending (status interrupted)",
            )
        value = check_answer(pending, answer)
        if self.store.decision_for(deps.run_id, pending.interrupt_id) != value:
            deps.event(
                "decision", interrupt_id=pending.interrupt_id, kind=pending.kind, value=value
            )
        return value

    def pending(self, run_id: str) -> Pending | None:
        """The question the run waits for, if any (read from its checkpoint)."""
        info = self.store.get_run(run_id)
        deps, graph, config = self._read(info.id)
        return self._pending(deps, graph.get_state(config).interrupts)

    def _drive(self, run_id: str, options: RunOptions, first: WorkflowState | None) -> RunResult:
        with self._graph(run_id, options) as (deps, graph, config):
            step: Any = first
            while True:
                outcome = self._segment(deps, graph, config, step, None, ("updates",), None)
                if isinstance(outcome, RunResult):
                    return outcome
                step = Command(resume=self._decide(deps, outcome))

    def snapshots(
        self, run_id: str, limit: int | None = None, before: str | None = None
    ) -> list[StateSnapshot]:
        """The run's checkpointed states, newest first (``limit=1``: the current one);
        ``before``: only those older than that checkpoint id. Read only."""
        info = self.store.get_run(run_id)
        _, graph, config = self._read(info.id)
        if limit == 1 and before is None:
            return [graph.get_state(config)]
        start = {"configurable": {"thread_id": info.id, "checkpoint_id": before}}
        return list(graph.get_state_history(config, limit=limit, before=start if before else None))

    def _read(self, run_id: str) -> tuple[Deps, Any, Any]:
        """The graph to read any run's checkpoints with (reading runs no node, so the
        deps' options do not matter)."""
        return self._compile(run_id, RunOptions(out_dir=""))

    def _compile(self, run_id: str, options: RunOptions) -> tuple[Deps, Any, Any]:
        """The run's deps, the graph (one per runner, on its store's checkpointer: the
        deps are each run's LangGraph context) and its config."""
        deps = Deps(
            model=self.model,
            toolchains=self.toolchains,
            store=self.store,
            run_id=run_id,
            options=options,
            settings=self.settings,
            context=self.context,
            grounder=self.grounder,
            project=self.project,
            languages=self.languages,
        )
        with self._lock:
            if self._compiled is None:
                self._compiled = workflow_graph(self.store.checkpointer())
            graph = self._compiled
        config: Any = {"configurable": {"thread_id": run_id}, "recursion_limit": RECURSION_LIMIT}
        return deps, graph, config

    @contextmanager
    def _graph(self, run_id: str, options: RunOptions) -> Iterator[tuple[Deps, Any, Any]]:
        """The run's deps, compiled graph and config; errors pause or fail the run."""
        deps, graph, config = self._compile(run_id, options)
        try:
            yield deps, graph, config
        except InputError:
            raise
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

    def _segment(
        self,
        deps: Deps,
        graph: Any,
        config: Any,
        step: Any,
        on_step: StepFn | None,
        modes: Sequence[str],
        stop: StopFn | None,
    ) -> RunResult | Pending:
        """Stream the graph from ``step`` to its next stop: the end, a question or ``stop``."""
        chunks = graph.stream(
            step, config, context=deps, stream_mode=list(modes), durability="sync"
        )
        for mode, chunk in chunks:
            if on_step is not None:
                on_step(mode, chunk)
            if stop is not None and stop():
                self.store.set_status(deps.run_id, "paused", "cancelled")
                return RunResult(deps.run_id, "paused", None, "cancelled")
        snapshot = graph.get_state(config)
        pending = self._pending(deps, snapshot.interrupts)
        if pending is None:
            return self._finish(deps.run_id, snapshot.values)
        self.store.set_status(deps.run_id, "waiting")
        return pending

    @staticmethod
    def _pending(deps: Deps, interrupts: Sequence[Interrupt]) -> Pending | None:
        if not interrupts:
            return None
        first = interrupts[0]
        value = first.value if isinstance(first.value, dict) else {}
        kind = str(value.get("kind"))
        question = QUESTION_TYPES.get(kind)
        if question is None:
            raise WorkflowError(f"unknown interrupt {kind!r}", run_id=deps.run_id)
        described = question.model_validate(value).model_dump(mode="json")
        return Pending(deps.run_id, first.id, kind, described)

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

    def _decide(self, deps: Deps, pending: Pending) -> dict[str, Any]:
        """The human's answer to a question (asked once; a recorded answer is reused)."""
        recorded = self.store.decision_for(deps.run_id, pending.interrupt_id)
        if recorded is not None:
            return recorded
        decision = None if self.human is None else ask(self.human, pending.kind, pending.value)
        if decision is None:
            raise WorkflowError(f"nobody answers the {pending.kind} question", run_id=deps.run_id)
        self.store.set_status(deps.run_id, "running")
        answer = decision.model_dump(mode="json", exclude_none=True)
        deps.event("decision", interrupt_id=pending.interrupt_id, kind=pending.kind, value=answer)
        return answer
