"""``codeproof mcp``: Model Context Protocol servers."""

from __future__ import annotations

import functools
from enum import StrEnum
from typing import Annotated

import typer

from codeproof.core.config import load_settings
from codeproof.toolchains.registry import get_toolchain, toolchain_names


class Backend(StrEnum):
    """Sandbox backends a server may use."""

    auto = "auto"
    docker = "docker"
    bubblewrap = "bubblewrap"
    unsafe_local = "unsafe-local"


mcp_app = typer.Typer(
    help="Model Context Protocol servers (stdio) for MCP clients such as Claude Desktop, "
    "Cursor or VS Code: codeproof itself, or one of its toolchains.",
    no_args_is_help=True,
)


@mcp_app.command("toolchain")
def toolchain(
    name: Annotated[
        str,
        typer.Argument(
            help="Which toolchain to serve: " + ", ".join(toolchain_names()),
            show_default=False,
        ),
    ],
    sandbox: Annotated[
        Backend | None,
        typer.Option(help="Sandbox backend (default: sandbox.backend of the configuration)."),
    ] = None,
) -> None:
    """Serve one language toolchain (run_tests, check, run, conventions) over stdio."""
    # Imported here: the MCP server stack is heavy and only this command needs it.
    from codeproof.sandbox.registry import limits_from_settings, open_session, start_session
    from codeproof.sandbox.warm import WarmSessions
    from codeproof.toolchains.server import ToolchainService, build_server

    settings = load_settings(sandbox={"backend": sandbox.value if sandbox else None})
    with WarmSessions(functools.partial(start_session, settings)) as warm:
        service = ToolchainService(
            toolchain=get_toolchain(name),
            open_session=warm
            if settings.sandbox.warm
            else functools.partial(open_session, settings),
            limits=limits_from_settings(settings),
        )
        build_server(service).run("stdio")


@mcp_app.command("serve")
def serve(
    user: Annotated[
        str, typer.Option(help="The user whose threads the tools create and see.")
    ] = "local",
) -> None:
    """Serve codeproof itself over stdio: start a run, read its status and question,
    answer it, fetch its project files and report (runs execute in this process)."""
    from codeproof.server.engine import production_engine
    from codeproof.server.launch import serve_stdio
    from codeproof.server.state import ServerState
    from codeproof.server.tokens import check_name

    settings = load_settings()
    check_name(user, "user name")
    serve_stdio(ServerState.build(production_engine(settings)), user)


def register(app: typer.Typer) -> None:
    app.add_typer(mcp_app, name="mcp")
