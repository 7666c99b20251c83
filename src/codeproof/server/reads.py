"""Thread state as the protocol shows it: the checkpointed values, the next nodes, the
pending interrupts (self-describing) and the checkpoint history, read from the same
checkpointer the runs write."""

from __future__ import annotations

from typing import Any

from langgraph.types import StateSnapshot

from codeproof.server.progress import jsonable
from codeproof.server.protocol import iso
from codeproof.server.service import Service
from codeproof.server.threads import ThreadRow
from codeproof.server.worker import run_exists


def _checkpoint(config: Any, thread_id: str) -> dict[str, Any] | None:
    if not config:
        return None
    conf = config.get("configurable", {})
    return {
        "thread_id": thread_id,
        "checkpoint_ns": conf.get("checkpoint_ns", ""),
        "checkpoint_id": conf.get("checkpoint_id"),
        "checkpoint_map": None,
    }


def state_json(snapshot: StateSnapshot, thread_id: str) -> dict[str, Any]:
    """One checkpointed state (``threads.get_state`` / ``get_history`` item)."""
    tasks = [
        {
            "id": task.id,
            "name": task.name,
            "error": None if task.error is None else str(task.error),
            "interrupts": jsonable(list(task.interrupts)),
            "checkpoint": None,
            "state": None,
            "result": jsonable(task.result) if task.result is not None else None,
        }
        for task in snapshot.tasks
    ]
    return {
        "values": jsonable(snapshot.values),
        "next": list(snapshot.next),
        "checkpoint": _checkpoint(snapshot.config, thread_id)
        or {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": None},
        "metadata": jsonable(snapshot.metadata or {}),
        "created_at": snapshot.created_at,
        "parent_checkpoint": _checkpoint(snapshot.parent_config, thread_id),
        "tasks": tasks,
        "interrupts": jsonable(list(snapshot.interrupts)),
    }


def empty_state(thread_id: str) -> dict[str, Any]:
    """The state of a thread that has not started."""
    return {
        "values": {},
        "next": [],
        "checkpoint": {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": None},
        "metadata": {},
        "created_at": None,
        "parent_checkpoint": None,
        "tasks": [],
        "interrupts": [],
    }


def thread_state(service: Service, thread_id: str) -> dict[str, Any]:
    with service.runner() as runner:
        if not run_exists(runner.store, thread_id):
            return empty_state(thread_id)
        return state_json(runner.snapshots(thread_id, limit=1)[0], thread_id)


def thread_history(
    service: Service, thread_id: str, limit: int, before: str | None
) -> list[dict[str, Any]]:
    with service.runner() as runner:
        if not run_exists(runner.store, thread_id):
            return []
        return [state_json(s, thread_id) for s in runner.snapshots(thread_id, limit, before)]


def thread_json(service: Service, thread: ThreadRow) -> dict[str, Any]:
    """A thread with its current values and pending interrupts."""
    state = thread_state(service, thread.id)
    interrupts: dict[str, list[Any]] = {
        task["id"]: task["interrupts"] for task in state["tasks"] if task["interrupts"]
    }
    return {
        "thread_id": thread.id,
        "created_at": iso(thread.created),
        "updated_at": iso(thread.updated),
        "metadata": thread.metadata,
        "status": thread.status,
        "values": state["values"] if state["checkpoint"]["checkpoint_id"] else None,
        "interrupts": interrupts,
        "config": {},
    }
