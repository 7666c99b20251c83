"""``/threads/{id}/runs`` and ``/runs``: create (background, stream, wait), list, get,
cancel, join and stream again from ``Last-Event-ID``.

Handlers only store and enqueue; the run executes in the worker pool and outlives the
request. A stream replays from the event log, so a dropped connection loses nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from codeproof.server.auth import Principal
from codeproof.server.http import api_principal, server_state
from codeproof.server.protocol import ASSISTANT_ID, STREAM_MODES, RunCreate, StreamMode, iso
from codeproof.server.reads import thread_state
from codeproof.server.sse import last_event_id, sse_body, wait_end
from codeproof.server.state import ServerState
from codeproof.server.threads import ApiRun

router = APIRouter(tags=["runs"])
User = Annotated[Principal, Depends(api_principal)]


def run_json(run: ApiRun) -> dict[str, Any]:
    return {
        "run_id": run.id,
        "thread_id": run.thread_id,
        "assistant_id": ASSISTANT_ID,
        "created_at": iso(run.created),
        "updated_at": iso(run.updated),
        "status": run.status,
        "metadata": run.payload.get("metadata", {}),
        "multitask_strategy": "reject",
        "kwargs": {"stream_mode": run.payload.get("stream_mode", ["values"])},
        "attempt": run.attempt,
        **({"error": run.error} if run.error else {}),
    }


def _locations(run: ApiRun) -> dict[str, str]:
    base = f"/threads/{run.thread_id}/runs/{run.id}"
    return {"Content-Location": base, "Location": f"{base}/stream"}


async def _create(
    state: ServerState, user: Principal, thread_id: str | None, body: RunCreate
) -> ApiRun:
    return await run_in_threadpool(state.service.create_run, user.user, thread_id, body)


def _stream(
    state: ServerState, run: ApiRun, modes: list[str], after: int, cancel: bool
) -> StreamingResponse:
    def on_close(finished: bool) -> None:
        if cancel and not finished:
            state.service.cancel_run(run.owner, run.thread_id, run.id)

    return StreamingResponse(
        sse_body(state.events, run.id, modes, after, on_close),
        media_type="text/event-stream",
        headers={**_locations(run), "Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


async def _final(state: ServerState, run: ApiRun) -> dict[str, Any]:
    """What ``wait`` and ``join`` return: the thread's values (with ``__interrupt__``)."""
    end = await wait_end(state.events, run.id)
    if end.event == "error":
        return {"__error__": end.data}
    current = await run_in_threadpool(thread_state, state.service, run.thread_id)
    values: dict[str, Any] = dict(current["values"])
    if current["interrupts"]:
        values["__interrupt__"] = current["interrupts"]
    return values


# -- create ---------------------------------------------------------------------------------


@router.post("/threads/{thread_id}/runs")
async def create_run(
    thread_id: str, body: RunCreate, request: Request, user: User, response: Response
) -> dict[str, Any]:
    """Create a run in the background; it is ``pending`` until a worker takes it."""
    run = await _create(server_state(request), user, thread_id, body)
    response.headers.update(_locations(run))
    return run_json(run)


@router.post("/runs")
async def create_stateless_run(
    body: RunCreate, request: Request, user: User, response: Response
) -> dict[str, Any]:
    """Create a run on a new thread (kept after the run)."""
    run = await _create(server_state(request), user, None, body)
    response.headers.update(_locations(run))
    return run_json(run)


@router.post("/threads/{thread_id}/runs/stream")
async def stream_run(
    thread_id: str, body: RunCreate, request: Request, user: User
) -> StreamingResponse:
    """Create a run and stream it as SSE (``values``, ``updates``, ``custom``)."""
    state = server_state(request)
    run = await _create(state, user, thread_id, body)
    return _stream(state, run, list(body.modes()), 0, body.on_disconnect == "cancel")


@router.post("/runs/stream")
async def stream_stateless_run(body: RunCreate, request: Request, user: User) -> StreamingResponse:
    state = server_state(request)
    run = await _create(state, user, None, body)
    return _stream(state, run, list(body.modes()), 0, body.on_disconnect == "cancel")


@router.post("/threads/{thread_id}/runs/wait")
async def wait_run(
    thread_id: str, body: RunCreate, request: Request, user: User, response: Response
) -> dict[str, Any]:
    """Create a run and answer when it ends (or stops at a question)."""
    state = server_state(request)
    run = await _create(state, user, thread_id, body)
    response.headers["Content-Location"] = _locations(run)["Content-Location"]
    return await _final(state, run)


@router.post("/runs/wait")
async def wait_stateless_run(
    body: RunCreate, request: Request, user: User, response: Response
) -> dict[str, Any]:
    state = server_state(request)
    run = await _create(state, user, None, body)
    response.headers["Content-Location"] = _locations(run)["Content-Location"]
    return await _final(state, run)


# -- read, join, cancel ---------------------------------------------------------------------


@router.get("/threads/{thread_id}/runs")
def list_runs(
    thread_id: str,
    request: Request,
    user: User,
    limit: Annotated[int, Query(ge=1, le=1000)] = 10,
    offset: Annotated[int, Query(ge=0)] = 0,
    status: Literal["pending", "running", "error", "success", "timeout", "interrupted"]
    | None = None,
) -> list[dict[str, Any]]:
    """The thread's runs, newest first."""
    state = server_state(request)
    state.threads.get_thread(user.user, thread_id)
    runs = state.threads.list_runs(thread_id, status=status, limit=limit, offset=offset)
    return [run_json(r) for r in runs]


@router.get("/threads/{thread_id}/runs/{run_id}")
def get_run(thread_id: str, run_id: str, request: Request, user: User) -> dict[str, Any]:
    return run_json(server_state(request).threads.get_run(user.user, thread_id, run_id))


@router.get("/threads/{thread_id}/runs/{run_id}/join")
async def join_run(thread_id: str, run_id: str, request: Request, user: User) -> dict[str, Any]:
    """Wait for the run to end; the thread's values."""
    state = server_state(request)
    run = await run_in_threadpool(state.threads.get_run, user.user, thread_id, run_id)
    return await _final(state, run)


@router.get("/threads/{thread_id}/runs/{run_id}/stream")
async def join_stream(
    thread_id: str,
    run_id: str,
    request: Request,
    user: User,
    stream_mode: Annotated[list[StreamMode] | None, Query()] = None,
    cancel_on_disconnect: bool = False,
    last_event: Annotated[str | None, Header(alias="last-event-id")] = None,
) -> StreamingResponse:
    """The run's stream from the start, or after ``Last-Event-ID`` (nothing lost or
    repeated across reconnects and server restarts)."""
    state = server_state(request)
    run = await run_in_threadpool(state.threads.get_run, user.user, thread_id, run_id)
    modes: list[str] = list(stream_mode or run.payload.get("stream_mode") or STREAM_MODES)
    return _stream(state, run, modes, last_event_id(last_event), cancel_on_disconnect)


@router.post("/threads/{thread_id}/runs/{run_id}/cancel")
async def cancel_run(
    thread_id: str,
    run_id: str,
    request: Request,
    user: User,
    wait: bool = False,
    action: Literal["interrupt"] = "interrupt",
) -> Response:
    """Cancel: a pending run at once, a running one at its next step (it stays resumable
    with a run without input)."""
    state = server_state(request)
    run = await run_in_threadpool(state.service.cancel_run, user.user, thread_id, run_id)
    if wait:
        await wait_end(state.events, run.id)
    return Response(status_code=202 if not wait else 200)
