"""``codeproof serve``: the HTTP API (LangGraph Platform subset), web page and MCP."""

from __future__ import annotations

from typing import Annotated

import typer

from codeproof.core.config import load_settings


def serve(
    host: Annotated[
        str | None, typer.Option(help="Address to listen on (default 127.0.0.1).")
    ] = None,
    port: Annotated[int | None, typer.Option(min=0, max=65535, help="Port (default 8123).")] = None,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Runs at once (default: one per model slot).")
    ] = None,
) -> None:
    """Serve codeproof over HTTP: the API at /, its docs at /docs, the web page, MCP at /mcp.

    Listens on loopback unless told otherwise; another address needs an API token
    (`codeproof tokens create NAME`).
    """
    from codeproof.server.engine import production_engine
    from codeproof.server.launch import check_bind, serve_http
    from codeproof.server.state import ServerState

    settings = load_settings(server={"host": host, "port": port, "workers": workers})
    check_bind(settings)
    serve_http(ServerState.build(production_engine(settings)))


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
