"""The web page: a new request, a run's live progress, its questions as forms, code and
tests with diffs between attempts, the report, the download, and the eval results.

Sessions are an HttpOnly, SameSite=Strict cookie; every form and htmx request carries
the session's CSRF token. Without auth configured the local user gets a session on the
first page (loopback only); with auth, a token pasted on the login page opens one.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool

from codeproof.core.errors import AuthError, CodeproofError
from codeproof.server import forms, project
from codeproof.server.auth import (
    CSRF_FIELD,
    CSRF_HEADER,
    LOCAL_USER,
    SESSION_COOKIE,
    Principal,
    check_csrf,
)
from codeproof.server.events import TERMINAL
from codeproof.server.http import server_state
from codeproof.server.pages import render, render_text
from codeproof.server.protocol import GRAPH_ID, PROGRESS_MODES, RunCreate
from codeproof.server.sse import follow
from codeproof.server.status import thread_status
from codeproof.server.views import attempts
from codeproof.workflow.store import RunStore

router = APIRouter(include_in_schema=False)
RENDER_EVERY_S = 0.25


class LoginRequired(Exception):
    """A page was asked for without a session while auth is configured."""


def web_principal(request: Request) -> Principal:
    """The page's user; opens a local session when no auth is configured."""
    state = server_state(request)
    principal = state.auth.web(request.cookies.get(SESSION_COOKIE))
    if principal is None:
        if state.auth.configured():
            raise LoginRequired
        state.auth.check_local_host(request.headers)
        secret, csrf = state.auth.sessions.create(LOCAL_USER, state.settings.server.session_hours)
        request.state.new_session = secret
        principal = Principal(user=LOCAL_USER, via="session", csrf=csrf)
    request.state.user = principal.user
    request.state.csrf = principal.csrf or ""
    return principal


async def csrf_principal(request: Request) -> Principal:
    """A state-changing request: the session and its CSRF token (header or form field)."""
    state = server_state(request)
    principal = state.auth.web(request.cookies.get(SESSION_COOKIE))
    if principal is None:
        raise AuthError("no session", hint="open the page again", status_code=403)
    presented = request.headers.get(CSRF_HEADER)
    if presented is None:
        field = (await request.form()).get(CSRF_FIELD)
        presented = field if isinstance(field, str) else None
    check_csrf(principal, presented)
    request.state.user = principal.user
    request.state.csrf = principal.csrf or ""
    return principal


Page = Annotated[Principal, Depends(web_principal)]
Write = Annotated[Principal, Depends(csrf_principal)]


def _session_cookie(request: Request, response: Response) -> Response:
    secret = getattr(request.state, "new_session", None)
    if secret:
        hours = server_state(request).settings.server.session_hours
        response.set_cookie(
            SESSION_COOKIE,
            secret,
            max_age=int(hours * 3600),
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path="/",
        )
    return response


def page(request: Request, template: str, context: dict[str, Any], status: int = 200) -> Response:
    return _session_cookie(request, render(request, template, context, status))


# -- sessions -------------------------------------------------------------------------------


@router.get("/ui/login", response_class=HTMLResponse)
def login_page(request: Request) -> Response:
    return page(request, "login.html", {"error": None})


@router.post("/ui/login")
def login(request: Request, token: Annotated[str, Form()]) -> Response:
    state = server_state(request)
    try:
        secret, _ = state.auth.login(token, state.settings.server.session_hours)
    except AuthError as exc:
        return page(request, "login.html", {"error": exc.message}, status=401)
    request.state.new_session = secret
    return _session_cookie(request, RedirectResponse("/", status_code=303))


@router.post("/ui/logout")
def logout(request: Request, user: Write) -> Response:
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        server_state(request).auth.sessions.delete(cookie)
    response = RedirectResponse("/ui/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


# -- requests and runs ----------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def home(request: Request, user: Page) -> Response:
    state = server_state(request)
    threads = state.threads.search(user.user, limit=50)
    infos = {t.id: state.service.run_info(t.id) for t in threads}
    return page(
        request,
        "home.html",
        {"threads": threads, "infos": infos, "languages": state.engine.languages, "error": None},
    )


@router.post("/ui/runs")
def new_run(
    request: Request,
    user: Write,
    text: Annotated[str, Form(alias="request")],
    lang: Annotated[str, Form()] = "",
    yes: Annotated[bool, Form()] = False,
    candidates: Annotated[int | None, Form()] = None,
    max_attempts: Annotated[int | None, Form()] = None,
) -> Response:
    state = server_state(request)
    options: dict[str, Any] = {"yes": yes}
    if candidates:
        options["candidates"] = candidates
    if max_attempts:
        options["max_attempts"] = max_attempts
    body = RunCreate(
        assistant_id=GRAPH_ID,
        input={"request": text, "lang": lang or None, "options": options},
        stream_mode=PROGRESS_MODES,
    )
    try:
        run = state.service.create_run(user.user, None, body)
    except CodeproofError as exc:
        threads = state.threads.search(user.user, limit=50)
        infos = {t.id: state.service.run_info(t.id) for t in threads}
        context = {
            "threads": threads,
            "infos": infos,
            "languages": state.engine.languages,
            "error": str(exc),
        }
        return page(request, "home.html", context, status=422)
    return RedirectResponse(f"/ui/threads/{run.thread_id}", status_code=303)


def _run_context(request: Request, user: str, thread_id: str) -> dict[str, Any]:
    state = server_state(request)
    thread = state.threads.get_thread(user, thread_id)
    status = thread_status(state.service, thread)
    latest = state.threads.latest_run(thread.id)
    return {"thread": thread, "status": status, "run": latest, "error": None}


@router.get("/ui/threads/{thread_id}", response_class=HTMLResponse)
def run_page(thread_id: str, request: Request, user: Page) -> Response:
    return page(request, "run.html", _run_context(request, user.user, thread_id))


@router.get("/ui/threads/{thread_id}/panel", response_class=HTMLResponse)
def panel(thread_id: str, request: Request, user: Page) -> Response:
    return page(request, "_panel.html", _run_context(request, user.user, thread_id))


def _sse(event: str, html: str) -> bytes:
    data = "\n".join(f"data: {line}" for line in html.splitlines() or [""])
    return f"event: {event}\n{data}\n\n".encode()


@router.get("/ui/threads/{thread_id}/live")
async def live(thread_id: str, request: Request, user: Page) -> StreamingResponse:
    """The latest run's progress as HTML fragments (``progress``, then ``question`` and
    ``done`` at its end)."""
    state = server_state(request)
    context = await run_in_threadpool(_run_context, request, user.user, thread_id)
    run = context["run"]

    async def fragments() -> AsyncIterator[bytes]:
        last = 0.0
        if run is not None:
            async for event in follow(state.events, run.id):
                if event is None:
                    yield b": keep-alive\n\n"
                    continue
                end = event.event in TERMINAL
                if end or time.monotonic() - last >= RENDER_EVERY_S:
                    ctx = await run_in_threadpool(_run_context, request, user.user, thread_id)
                    yield _sse("progress", render_text("_progress.html", ctx))
                    last = time.monotonic()
                if end:
                    break
        ctx = await run_in_threadpool(_run_context, request, user.user, thread_id)
        yield _sse("progress", render_text("_progress.html", ctx))
        yield _sse("question", render_text("_question.html", {**ctx, "csrf": user.csrf}))
        yield _sse("done", "")

    return StreamingResponse(
        fragments(), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
    )


@router.post("/ui/threads/{thread_id}/answer", response_class=HTMLResponse)
async def answer(thread_id: str, request: Request, user: Write) -> Response:
    state = server_state(request)
    form = await request.form()
    pending = await run_in_threadpool(state.service.pending, thread_id)
    ctx = await run_in_threadpool(_run_context, request, user.user, thread_id)
    if pending is None:
        return page(request, "_panel.html", ctx)
    try:
        value = forms.answer_from(form, pending.value)
        body = RunCreate(
            assistant_id=GRAPH_ID, command={"resume": value}, stream_mode=PROGRESS_MODES
        )
        await run_in_threadpool(state.service.create_run, user.user, thread_id, body)
    except CodeproofError as exc:  # a refused answer shows on the form, nothing is written
        return page(request, "_panel.html", {**ctx, "error": str(exc)}, status=422)
    ctx = await run_in_threadpool(_run_context, request, user.user, thread_id)
    return page(request, "_panel.html", ctx)


@router.post("/ui/threads/{thread_id}/continue", response_class=HTMLResponse)
def continue_run(thread_id: str, request: Request, user: Write) -> Response:
    state = server_state(request)
    state.service.create_run(
        user.user, thread_id, RunCreate(assistant_id=GRAPH_ID, stream_mode=PROGRESS_MODES)
    )
    return page(request, "_panel.html", _run_context(request, user.user, thread_id))


@router.post("/ui/threads/{thread_id}/cancel", response_class=HTMLResponse)
def cancel(thread_id: str, request: Request, user: Write) -> Response:
    state = server_state(request)
    latest = state.threads.latest_run(state.threads.get_thread(user.user, thread_id).id)
    if latest is not None:
        state.service.cancel_run(user.user, thread_id, latest.id)
    return page(request, "_panel.html", _run_context(request, user.user, thread_id))


# -- code, report, download -----------------------------------------------------------------


@router.get("/ui/threads/{thread_id}/code", response_class=HTMLResponse)
def code(thread_id: str, request: Request, user: Page) -> Response:
    state = server_state(request)
    thread = state.threads.get_thread(user.user, thread_id)
    with RunStore(state.settings.runs_dir) as store:
        events = store.events(thread.id) if state.service.run_info(thread.id) else []
    return page(request, "code.html", {"thread": thread, "modules": attempts(events)})


def _root(request: Request, user: str, thread_id: str) -> Any:
    state = server_state(request)
    state.threads.get_thread(user, thread_id)
    info = state.service.run_info(thread_id)
    return project.assembled(info.out_dir if info else None, thread_id)


@router.get("/ui/threads/{thread_id}/report", response_class=HTMLResponse)
def report(thread_id: str, request: Request, user: Page) -> Response:
    data = project.report(_root(request, user.user, thread_id))
    return page(request, "report.html", {"report": data, "thread_id": thread_id})


@router.get("/ui/threads/{thread_id}/download")
def download(thread_id: str, request: Request, user: Page) -> Response:
    return Response(
        project.zip_bytes(_root(request, user.user, thread_id)),
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="{thread_id}.zip"'},
    )
