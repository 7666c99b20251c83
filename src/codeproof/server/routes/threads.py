"""``/threads``: create, get, search, delete, state and history (one thread = one
codeproof run)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from starlette.concurrency import run_in_threadpool

from codeproof.server.auth import Principal
from codeproof.server.http import api_principal, server_state
from codeproof.server.protocol import HistoryRequest, ThreadCreate, ThreadSearch
from codeproof.server.reads import thread_history, thread_json, thread_state

router = APIRouter(tags=["threads"])
User = Annotated[Principal, Depends(api_principal)]


@router.post("/threads")
def create_thread(body: ThreadCreate, request: Request, user: User) -> dict[str, Any]:
    """A new thread (``thread_id`` optional; ``if_exists``: raise or do_nothing)."""
    state = server_state(request)
    row = state.threads.create_thread(
        user.user, body.thread_id, body.metadata, if_exists=body.if_exists
    )
    return thread_json(state.service, row)


@router.get("/threads/{thread_id}")
def get_thread(thread_id: str, request: Request, user: User) -> dict[str, Any]:
    """The thread with its values and pending interrupts (404: not yours or none)."""
    state = server_state(request)
    return thread_json(state.service, state.threads.get_thread(user.user, thread_id))


@router.post("/threads/search")
def search_threads(body: ThreadSearch, request: Request, user: User) -> list[dict[str, Any]]:
    """Your threads, newest first (metadata, status, ids, limit, offset)."""
    state = server_state(request)
    rows = state.threads.search(
        user.user,
        metadata=body.metadata,
        status=body.status,
        ids=body.ids,
        limit=body.limit,
        offset=body.offset,
    )
    return [thread_json(state.service, row) for row in rows]


@router.delete("/threads/{thread_id}", status_code=204)
async def delete_thread(thread_id: str, request: Request, user: User) -> Response:
    """Delete the thread, its runs, streams, codeproof run and project (409 while a run is
    in progress)."""
    await run_in_threadpool(server_state(request).service.delete_thread, user.user, thread_id)
    return Response(status_code=204)


@router.get("/threads/{thread_id}/state")
def get_state(thread_id: str, request: Request, user: User) -> dict[str, Any]:
    """The current checkpointed state: values, next nodes, tasks, interrupts."""
    state = server_state(request)
    state.threads.get_thread(user.user, thread_id)
    return thread_state(state.service, thread_id)


@router.post("/threads/{thread_id}/history")
def get_history(
    thread_id: str, body: HistoryRequest, request: Request, user: User
) -> list[dict[str, Any]]:
    """Earlier states, newest first (``before``: a checkpoint or its id)."""
    state = server_state(request)
    state.threads.get_thread(user.user, thread_id)
    before = body.before.get("checkpoint_id") if isinstance(body.before, dict) else body.before
    return thread_history(state.service, thread_id, body.limit, before)
