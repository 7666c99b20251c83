"""Product routes beside the protocol: a thread's project as a zip, its report as JSON
and as HTML."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import HTMLResponse

from codeproof.server import project
from codeproof.server.auth import Principal
from codeproof.server.http import api_principal, server_state
from codeproof.server.pages import render

router = APIRouter(tags=["projects"])
User = Annotated[Principal, Depends(api_principal)]


def project_root(request: Request, user: str, thread_id: str) -> Path:
    """The assembled project of the caller's thread (404 not yours, 409 not done)."""
    state = server_state(request)
    state.threads.get_thread(user, thread_id)
    info = state.service.run_info(thread_id)
    return project.assembled(info.out_dir if info else None, thread_id)


@router.get("/threads/{thread_id}/project.zip")
def download(thread_id: str, request: Request, user: User) -> Response:
    """The project: sources, tests, README, API docs, Dockerfile and the report."""
    root = project_root(request, user.user, thread_id)
    return Response(
        project.zip_bytes(root),
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="{thread_id}.zip"'},
    )


@router.get("/threads/{thread_id}/report")
def report(thread_id: str, request: Request, user: User) -> dict[str, Any]:
    """The run report (``codeproof-report.json``)."""
    return project.report_json(project_root(request, user.user, thread_id))


@router.get("/threads/{thread_id}/report.html", response_class=HTMLResponse)
def report_html(thread_id: str, request: Request, user: User) -> HTMLResponse:
    """The run report as a page."""
    data = project.report(project_root(request, user.user, thread_id))
    return render(request, "report.html", {"report": data, "thread_id": thread_id})
