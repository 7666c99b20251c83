"""The codeproof workflow as one LangGraph ``StateGraph``.

::

    intake ⟲ (clarify rounds) → analyze → modules → ┐
      ┌──────────────────────────────────────────────┘
      └→ plan ─┬→ design_tests ─┬→ execute ─→ prove ⟲ ─→ finish ─→ plan (next module) | document
               └→ write_code  ──┘   ↑ ↓ ↓       ↑ ↓ ↑ ask ⟲                            → assemble
                         draw | repair ┘ escalate ┘ (react: plan | execute | repair)

The module nodes are thin adapters over :mod:`codeproof.engine` (the evaluation runs
the same steps). ``design_tests`` and ``write_code`` (the first draft) are parallel
branches (fan-out/fan-in): both decode at once on providers with two slots. After each
execution :func:`codeproof.engine.policy.next_step` decides: finish when settled, draw
more drafts while the evidence is against the choice, repair what a repair can fix,
else escalate. A settled module is proven (:mod:`codeproof.workflow.proof_nodes`): the
strength of its tests measured, checks added, and the drafts' disagreements asked
(``ask``); an answer the chosen code does not give sends it back to ``execute``. Each
node is wrapped so that its inputs and outputs land in the audit
trail.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from codeproof.workflow import module_nodes as mn
from codeproof.workflow import nodes as rn
from codeproof.workflow import proof_nodes as pn
from codeproof.workflow.deps import Deps
from codeproof.workflow.models import WorkflowState

NodeFn = Callable[[Deps, WorkflowState], dict[str, Any]]

#: node name -> (function, state keys it reads; recorded as the node's input)
NODES: dict[str, tuple[NodeFn, tuple[str, ...]]] = {
    "intake": (rn.intake, ("request", "answers", "clarify_round")),
    "analyze": (rn.analyze, ("request", "answers", "assumptions")),
    "modules": (rn.modules, ("spec",)),
    "plan": (mn.plan, ("spec", "current", "work")),
    "design_tests": (mn.design_tests, ("spec", "current")),
    "write_code": (mn.write_code, ("spec", "current", "work")),
    "execute": (mn.execute, ("current", "work", "tests", "candidates")),
    "draw": (mn.draw, ("spec", "current", "work")),
    "repair": (mn.repair, ("spec", "current", "work")),
    "escalate": (mn.escalate, ("current", "work")),
    "prove": (pn.prove, ("spec", "current", "work")),
    "ask": (pn.ask, ("current", "work")),
    "finish": (mn.finish, ("current", "work")),
    "document": (rn.document, ("spec", "outcomes")),
    "assemble": (rn.assemble, ("spec", "outcomes", "docs")),
}

RECURSION_LIMIT = 10_000


def _position(state: WorkflowState) -> dict[str, Any]:
    """Which module and attempt a node runs for (for the display and the audit trail)."""
    checklist = state.get("checklist") or []
    current = state.get("current", 0)
    if not checklist or current >= len(checklist):
        return {}
    work = state.get("work") or {}
    return {
        "module": checklist[current].get("name"),
        "index": current,
        "modules": len(checklist),
        "attempt": work.get("attempt", 0),
        "round": work.get("round", 0),
    }


def _entry(state: WorkflowState) -> str:
    """Where a run starts: the intake, or later when a spec (and modules) were given."""
    if state.get("checklist"):
        return "plan"
    return "modules" if state.get("spec") else "intake"


def _audited(name: str, fn: NodeFn, reads: tuple[str, ...]) -> Callable[..., Any]:
    def node(state: WorkflowState, runtime: Runtime[Deps]) -> dict[str, Any]:
        deps = runtime.context
        where = _position(state)
        inputs = {k: state.get(k) for k in reads if k in state}
        deps.event("node_start", node=name, **where, input=inputs)
        output = fn(deps, state)
        deps.event("node_end", node=name, **where, output=output)
        return output

    node.__name__ = name
    return node


def _after_execute(state: WorkflowState, runtime: Runtime[Deps]) -> str:
    return mn.after_execute(runtime.context, state)


def build_graph(
    checkpointer: BaseCheckpointSaver[Any] | None = None,
) -> CompiledStateGraph[WorkflowState, Deps, Any, Any]:
    """Compile the workflow graph (once: it serves every run).

    A run's runtime objects (model, toolchains, store, options: :class:`Deps`, not part
    of the checkpointed state) are LangGraph's run context: ``graph.stream(..., context=
    deps)``; each node and edge reads them from its ``runtime``.

    Args:
        checkpointer: Where checkpoints go (the run store's SQLite saver).
    """
    g: StateGraph[Any, Any, Any, Any] = StateGraph(WorkflowState, context_schema=Deps)
    for name, (fn, reads) in NODES.items():
        g.add_node(name, _audited(name, fn, reads))
    g.add_conditional_edges(START, _entry, ["intake", "modules", "plan"])
    g.add_conditional_edges(
        "intake", lambda s: "analyze" if s.get("intake_done") else "intake", ["analyze", "intake"]
    )
    g.add_edge("analyze", "modules")
    g.add_edge("modules", "plan")
    g.add_edge("plan", "design_tests")
    g.add_edge("plan", "write_code")
    g.add_edge(["design_tests", "write_code"], "execute")
    g.add_conditional_edges(
        "execute",
        _after_execute,
        {"finish": "prove", "draw": "draw", "repair": "repair", "escalate": "escalate"},
    )
    g.add_edge("draw", "execute")
    g.add_edge("repair", "execute")
    g.add_conditional_edges(
        "escalate",
        mn.after_escalate,
        {"finish": "prove", "plan": "plan", "execute": "execute", "repair": "repair"},
    )
    for node in ("prove", "ask"):
        g.add_conditional_edges(node, pn.after, ["ask", "execute", "prove", "finish"])
    g.add_conditional_edges("finish", mn.after_finish, ["plan", "document"])
    g.add_edge("document", "assemble")
    g.add_edge("assemble", END)
    return g.compile(checkpointer=checkpointer)


_compiled: list[CompiledStateGraph[WorkflowState, Deps, Any, Any]] = []
_compiling = threading.Lock()


def workflow_graph(
    checkpointer: BaseCheckpointSaver[Any],
) -> CompiledStateGraph[WorkflowState, Deps, Any, Any]:
    """The workflow graph on ``checkpointer``: compiled once per process (26 ms), then
    copied for each run store (0.2 ms); the copies share their nodes, which keep no state
    between runs."""
    with _compiling:
        if not _compiled:
            _compiled.append(build_graph())
        graph = _compiled[0]
    return graph.copy({"checkpointer": checkpointer})
