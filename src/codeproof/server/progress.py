"""What a stream shows: graph chunks as JSON, and audit events as small progress events.

``values`` and ``updates`` chunks come from the graph as LangGraph streams them (an
interrupt as ``__interrupt__``: ``[{value, id, response_schema}]``, its value
self-describing); ``custom`` events are the run's audit trail without the bulky parts
(prompts, replies, file contents), one per node start and end, model call, tool call,
decision and error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langgraph.types import Interrupt
from pydantic import BaseModel

from codeproof.server.protocol import interrupt_json
from codeproof.workflow.models import QUESTION_TYPES
from codeproof.workflow.store import Event

_PLAIN = (str, int, float, bool, type(None))


def jsonable(value: Any) -> Any:
    """A graph chunk as plain JSON values (interrupts described, tuples as lists).

    Plain values, dicts and lists are told by their exact type first: the ABC checks
    below cost a tenth of a scripted run's server time when they came first."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:
        return {str(k): jsonable(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [jsonable(v) for v in value]
    if isinstance(value, Interrupt):
        return interrupt_json(value.id, describe(value.value))
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return [jsonable(v) for v in value]
    return value


def describe(value: Any) -> Any:
    """An interrupt value with its question, choices and default (also for old checkpoints)."""
    if not isinstance(value, dict):
        return value
    question = QUESTION_TYPES.get(str(value.get("kind")))
    return question.model_validate(value).model_dump(mode="json") if question else value


_KEEP = ("node", "module", "index", "modules", "attempt", "round")


def progress(event: Event) -> dict[str, Any]:
    """One audit event as a ``custom`` stream event."""
    p = event.payload
    out: dict[str, Any] = {"kind": event.kind, "seq": event.seq, "ts": event.ts}
    if event.kind in ("node_start", "node_end"):
        out.update({k: p[k] for k in _KEEP if k in p})
        if event.kind == "node_end":
            out.update(_node_result(str(p.get("node")), p.get("output") or {}))
    elif event.kind == "llm_call":
        out.update(
            scope=p.get("scope"),
            tokens=int(p.get("prompt_tokens") or 0) + int(p.get("completion_tokens") or 0),
            latency_s=p.get("latency_s"),
            replayed=bool(p.get("replayed")),
            cached=bool(p.get("cached")),
        )
    elif event.kind == "tool_call":
        out.update(language=p.get("language"), tool=p.get("tool", p.get("name")))
    elif event.kind == "decision":
        out.update(question=p.get("kind"), value=p.get("value"))
    else:
        out.update(error=p.get("error"), message=p.get("message"))
    return out


def _node_result(node: str, output: dict[str, Any]) -> dict[str, Any]:
    if node == "modules":
        return {"checklist": [m.get("name") for m in output.get("checklist", [])]}
    if node == "execute":
        work = output.get("work") or {}
        report = work.get("report") or {}
        return {
            "passed": report.get("passed", 0),
            "total": report.get("total", 0),
            "attempt": work.get("attempts_total", 0),
        }
    if node == "finish":
        outcomes = output.get("outcomes") or []
        last = outcomes[-1] if outcomes else {}
        return {"status": last.get("status"), "module": (last.get("module") or {}).get("name")}
    if node == "prove":
        proof = (output.get("work") or {}).get("proof") or {}
        score = (proof.get("mutation") or {}).get("score")
        return {"strength": proof.get("strength"), "mutation_score": score}
    if node == "assemble":
        return {"project_dir": output.get("project_dir")}
    return {}
