"""Starting a server process: the bind check, then uvicorn on the app (HTTP) or the MCP
server on stdio. Shared by ``codeproof serve``, ``codeproof mcp serve`` and tests."""

from __future__ import annotations

import logging
import sys

from codeproof.core.config import Settings
from codeproof.core.errors import InputError
from codeproof.server.auth import is_loopback
from codeproof.server.db import ServerDB
from codeproof.server.state import ServerState
from codeproof.server.tokens import TokenStore

logger = logging.getLogger(__name__)


def check_bind(settings: Settings) -> None:
    """Refuse a non-loopback address while no auth is configured.

    Raises:
        InputError: ``server.host`` is not loopback and no token exists.
    """
    host = settings.server.host
    if is_loopback(host) or settings.server.require_auth:
        return
    with ServerDB(settings.runs_dir) as db:
        if TokenStore(db).any_active():
            return
    raise InputError(
        f"refusing to listen on {host} without auth: anyone who reaches it could run code",
        hint="create a token first (`codeproof tokens create NAME`), or listen on 127.0.0.1",
    )


def serve_http(state: ServerState) -> None:
    """Serve the app with uvicorn until SIGINT/SIGTERM (runs pause, and continue at the
    next start)."""
    import uvicorn

    from codeproof.server.app import create_app

    settings = state.settings.server
    app = create_app(state)
    print(
        f"codeproof serving on http://{settings.host}:{settings.port} "
        f"(web page /, API docs /docs, MCP /mcp; {state.engine.workers} worker(s))",
        file=sys.stderr,
        flush=True,
    )
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level="warning",
        timeout_graceful_shutdown=5,
    )


def serve_stdio(state: ServerState, user: str) -> None:
    """Serve the MCP tools on stdio as ``user``, with this process's own workers."""
    from codeproof.server.mcp_server import build_server

    state.start()
    try:
        build_server(state, stdio_user=user).run("stdio")
    finally:
        state.stop()
