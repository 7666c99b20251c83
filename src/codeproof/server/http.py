"""HTTP plumbing: who is calling, errors as one-line JSON, and the request guards
(body size, JSON content type, same-origin writes)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from codeproof.core.errors import CodeproofError, PayloadTooLargeError, UserError
from codeproof.server.auth import Principal, host_name
from codeproof.server.state import ServerState

logger = logging.getLogger(__name__)

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def server_state(request: Request) -> ServerState:
    state: ServerState = request.app.state.server
    return state


def api_principal(request: Request) -> Principal:
    """FastAPI dependency: the caller of an API request (401 without valid credentials)."""
    return server_state(request).auth.api(request.headers)


def error_body(exc: CodeproofError) -> dict[str, Any]:
    body: dict[str, Any] = {"detail": exc.message, "error": type(exc).__name__}
    if exc.hint:
        body["hint"] = exc.hint
    return body


def status_of(exc: CodeproofError) -> int:
    code = getattr(exc, "status_code", None)
    if isinstance(code, int):
        return code
    return 422 if isinstance(exc, UserError) else 500


async def on_codeproof_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, CodeproofError)
    status = status_of(exc)
    headers = {}
    retry = getattr(exc, "retry_after_s", None)
    if retry is not None:
        headers["Retry-After"] = str(retry)
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    return JSONResponse(error_body(exc), status_code=status, headers=headers)


async def on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    first: dict[str, Any] = dict(errors[0]) if errors else {"loc": (), "msg": "invalid request"}
    if first.get("type") == "json_invalid":
        ctx: dict[str, Any] = first.get("ctx") or {}
        return JSONResponse(
            {
                "detail": f"invalid JSON: {ctx.get('error', 'cannot parse the body')}",
                "error": "InvalidJSON",
                "hint": "send a JSON object with Content-Type: application/json",
            },
            status_code=400,
        )
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
    return JSONResponse(
        {
            "detail": f"{where}: {first.get('msg')}",
            "error": "InvalidRequest",
            "hint": "see /docs for the expected shape",
        },
        status_code=422,
    )


async def on_http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    detail = exc.detail if isinstance(exc.detail, str) else "request refused"
    if exc.status_code == 404:
        detail = f"no route {request.method} {request.url.path}"
    elif exc.status_code == 405:
        detail = f"{request.method} is not allowed on {request.url.path}"
    return JSONResponse(
        {"detail": detail, "error": "HTTPError", "hint": "see /docs"},
        status_code=exc.status_code,
        headers=getattr(exc, "headers", None),
    )


async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    logger.exception("unexpected error on %s %s", request.method, request.url.path)
    return JSONResponse(
        {"detail": f"internal error: {type(exc).__name__}", "error": "InternalError"},
        status_code=500,
    )


class GuardMiddleware:
    """Refuses, before any handler runs: a body over ``max_body_bytes`` (413), a non-empty
    write to the API that is not JSON (415), and a write whose ``Origin`` is another site
    (403). Form posts of the web page (``/ui``) and the MCP endpoint keep their types."""

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        refused = self._refuse(scope, headers)
        if refused is not None:
            await _json(send, *refused)
            return
        await self.app(scope, self._limited(receive), send)

    def _refuse(self, scope: Scope, headers: dict[str, str]) -> tuple[int, dict[str, str]] | None:
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > self.max_body_bytes:
            exc = PayloadTooLargeError(
                f"the body has {length} bytes; the limit is {self.max_body_bytes}",
                hint="send less, or raise server.max_body_bytes",
            )
            return 413, error_body(exc)
        if scope["method"] not in UNSAFE:
            return None
        origin = headers.get("origin")
        if origin and host_name(origin.split("://", 1)[-1]) != host_name(headers.get("host", "")):
            return 403, {"detail": f"cross-site request from {origin}", "error": "AuthError"}
        path: str = scope["path"]
        kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        is_api = not (path.startswith("/ui") or path.startswith("/mcp"))
        has_body = length not in ("", "0") or "transfer-encoding" in headers
        if is_api and has_body and kind != "application/json":
            return 415, {
                "detail": f"the body must be JSON, not {kind or 'untyped'}",
                "error": "UnsupportedMediaType",
                "hint": "send Content-Type: application/json",
            }
        return None

    def _limited(self, receive: Receive) -> Receive:
        seen = 0
        limit = self.max_body_bytes

        async def wrapped() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise PayloadTooLargeError(f"the body is over {limit} bytes", hint="send less")
            return message

        return wrapped


async def _json(send: Send, status: int, body: dict[str, str]) -> None:
    import json

    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})
