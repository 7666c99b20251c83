"""The FastAPI application: the protocol routes, the product routes, the web page, the
MCP endpoint under ``/mcp``, OpenAPI docs at ``/docs``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from importlib import resources

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route

from codeproof import __version__
from codeproof.core.errors import CodeproofError
from codeproof.server import http
from codeproof.server.routes import assistants, evals, product, runs, threads, web
from codeproof.server.state import ServerState

DESCRIPTION = """codeproof as a service: the subset of the LangGraph Platform API that
the official `langgraph-sdk` client uses (assistant and graph id `codeproof`), product
routes for a run's project and report, a web page at `/`, and MCP at `/mcp`.

A run's input is `{"request": str, "lang"?: str, "options"?: {...}}`; questions arrive as
`__interrupt__` and are answered with `command={"resume": value}`."""


def create_app(state: ServerState, *, mcp: bool = True) -> FastAPI:
    """The app of one server process; ``state`` starts and stops with it."""
    mcp_app = None
    if mcp:
        from codeproof.server.mcp_server import build_mcp

        mcp_app = build_mcp(state)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            state.start()
            stack.callback(state.stop)
            if mcp_app is not None:
                await stack.enter_async_context(mcp_app.session_manager.run())
            yield

    app = FastAPI(
        title="codeproof",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    app.state.server = state
    app.add_exception_handler(CodeproofError, http.on_codeproof_error)
    app.add_exception_handler(RequestValidationError, http.on_validation_error)
    app.add_exception_handler(StarletteHTTPException, http.on_http_error)
    app.add_exception_handler(Exception, http.on_unexpected)
    app.add_middleware(http.GuardMiddleware, max_body_bytes=state.settings.server.max_body_bytes)
    app.add_exception_handler(web.LoginRequired, _to_login)
    for module in (assistants, threads, runs, product, web, evals):
        app.include_router(module.router)

    @app.get("/ok", tags=["meta"])
    def ok() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/info", tags=["meta"])
    def info() -> dict[str, object]:
        return {"version": __version__, "flags": {"assistants": True, "crons": False}}

    static = resources.files("codeproof.server") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    if mcp_app is not None:
        app.router.routes.append(Route("/mcp", mcp_app.asgi, methods=["GET", "POST", "DELETE"]))
    return app


async def _to_login(request: Request, exc: Exception) -> Response:
    if request.headers.get("hx-request"):
        return Response(status_code=401, headers={"HX-Redirect": "/ui/login"})
    return RedirectResponse("/ui/login", status_code=303)
