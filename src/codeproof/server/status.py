"""A thread at a glance (MCP ``run_status`` and the web page): statuses, modules,
tests, usage, the pending question and the last error."""

from __future__ import annotations

from typing import Any

from codeproof.server.service import Service
from codeproof.server.threads import ThreadRow
from codeproof.server.worker import run_exists
from codeproof.workflow.store import Event
from codeproof.workflow.summary import summarize


def thread_status(service: Service, thread: ThreadRow) -> dict[str, Any]:
    """What a client polls: ``status`` (idle, busy, interrupted, error), the codeproof
    run's own status, modules, the pending question and the last run's error."""
    out: dict[str, Any] = {
        "thread_id": thread.id,
        "status": thread.status,
        "last_run": None,
        "error": None,
        "run": None,
        "step": None,
        "modules": [],
        "usage": None,
        "project_ready": False,
        "question": None,
    }
    latest = service.threads.latest_run(thread.id)
    if latest is not None:
        out["last_run"] = {"run_id": latest.id, "status": latest.status}
        out["error"] = latest.error
    with service.runner() as runner:
        store = runner.store
        if not run_exists(store, thread.id):
            return out
        info = store.get_run(thread.id)
        events = store.events(info.id)
        summary = summarize(info, events)
        pending = runner.pending(info.id) if thread.status == "interrupted" else None
    out.update(
        step=_step(events),
        run={"status": info.status, "reason": info.reason, "request": info.request},
        modules=[m.model_dump(mode="json") for m in summary.modules],
        usage=summary.usage.model_dump(mode="json"),
        project_ready=summary.project_dir is not None,
        question=None if pending is None else pending.value,
    )
    return out


def _step(events: list[Event]) -> dict[str, Any] | None:
    """The node that started last, with its module and attempt."""
    for event in reversed(events):
        if event.kind == "node_start":
            p = event.payload
            return {k: p.get(k) for k in ("node", "module", "attempt", "index", "modules")}
    return None
