"""The codeproof command line: a thin Typer app over the packages.

Each command group lives in ``codeproof.commands.<name>`` and registers itself on
the root app. User errors print one line with the fix and exit 2; runtime failures
exit 1; neither prints a traceback unless ``--debug`` is given.
"""

from __future__ import annotations

import logging
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.logging import RichHandler
from rich.markup import escape

from codeproof import __version__
from codeproof.commands import COMMAND_MODULES
from codeproof.core.config import load_settings
from codeproof.core.errors import CodeproofError, ConfigError

app = typer.Typer(
    name="codeproof",
    help="Turn a request into code proven by tests run in a sandbox.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
err_console = Console(stderr=True)
_state = {"debug": False}


def _version(value: bool) -> None:
    if value:
        typer.echo(f"codeproof {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    verbose: Annotated[int, typer.Option("--verbose", "-v", count=True, help="More logs.")] = 0,
    debug: Annotated[bool, typer.Option(help="Show tracebacks on errors.")] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print version.")
    ] = False,
) -> None:
    """Turn a request into code proven by tests run in a sandbox."""
    _state["debug"] = debug
    level: int | str = logging.WARNING - 10 * min(verbose, 2)
    if not verbose:
        try:
            level = load_settings().log_level
        except ConfigError:
            level = logging.WARNING  # the command itself reports the bad configuration
    logging.basicConfig(
        level=level,
        format="%(message)s",
        handlers=[RichHandler(console=err_console, show_path=False)],
    )


for _module in COMMAND_MODULES:
    _module.register(app)


def main() -> None:
    """Entry point of the ``codeproof`` script.

    Typer (standalone mode) handles usage errors, ``--help`` and Ctrl-C; codeproof's
    own errors are printed here as one line plus the fix.
    """
    try:
        app()
    except CodeproofError as exc:
        if _state["debug"]:
            raise
        err_console.print(
            f"[bold red]error:[/] {escape(exc.message)}", highlight=False, soft_wrap=True
        )
        if exc.hint:
            err_console.print(f"[bold]fix:[/] {escape(exc.hint)}", highlight=False, soft_wrap=True)
        sys.exit(exc.exit_code)
