"""``codeproof tokens create|list|revoke``: API tokens of ``codeproof serve``."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from codeproof.core.config import load_settings

tokens_app = typer.Typer(
    help="API tokens for codeproof serve (only their sha256 is stored).", no_args_is_help=True
)


def _when(ts: float | None) -> str:
    return "-" if ts is None else datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M")


@tokens_app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="A name to tell the token by (e.g. laptop).")],
    user: Annotated[
        str | None, typer.Option(help="The user it acts as (default: NAME); owns its threads.")
    ] = None,
) -> None:
    """Create a token and print it once (it cannot be shown again)."""
    from codeproof.server.db import ServerDB
    from codeproof.server.tokens import TokenStore

    with ServerDB(load_settings().runs_dir) as db:
        info, secret = TokenStore(db).create(name, user)
    typer.echo(secret)
    typer.echo(
        f"token {info.name} for user {info.user}: send it as x-api-key or "
        "'Authorization: Bearer'; it is shown only now.",
        err=True,
    )


@tokens_app.command("list")
def list_tokens() -> None:
    """The tokens (names, users, dates; never the tokens themselves)."""
    from codeproof.server.db import ServerDB
    from codeproof.server.tokens import TokenStore

    with ServerDB(load_settings().runs_dir) as db:
        tokens = TokenStore(db).list()
    table = Table("name", "user", "created (UTC)", "last used", "status")
    for t in tokens:
        status = "active" if t.active else f"revoked {_when(t.revoked)}"
        cells = (t.name, t.user, _when(t.created), _when(t.last_used), status)
        table.add_row(*(escape(c) for c in cells))
    Console().print(table)


@tokens_app.command("revoke")
def revoke(name: Annotated[str, typer.Argument(help="The token's name.")]) -> None:
    """Revoke a token: it stops working at once."""
    from codeproof.server.db import ServerDB
    from codeproof.server.tokens import TokenStore

    with ServerDB(load_settings().runs_dir) as db:
        info = TokenStore(db).revoke(name)
    typer.echo(f"token {info.name} revoked")


def register(app: typer.Typer) -> None:
    app.add_typer(tokens_app, name="tokens")
