"""``codeproof ask PROMPT``: stream one answer from the configured model."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.console import Console

from codeproof.core.config import load_settings
from codeproof.llm.base import Message
from codeproof.llm.registry import get_chat_model

err_console = Console(stderr=True)


def ask(
    prompt: Annotated[str, typer.Argument(help="What to ask the model.")],
    provider: Annotated[str | None, typer.Option(help="Override llm.provider.")] = None,
    model: Annotated[str | None, typer.Option(help="Override llm.model.")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Bypass the cache.")] = False,
    max_tokens: Annotated[int | None, typer.Option(help="Override llm.max_tokens.")] = None,
) -> None:
    """Stream the model's answer to stdout, then a one-line summary to stderr."""
    settings = load_settings(
        llm={
            "provider": provider,
            "model": model,
            "max_tokens": max_tokens,
            "cache": False if no_cache else None,
        }
    )
    chat = get_chat_model(settings)
    try:
        stream = chat.stream([Message(role="user", content=prompt)])
        for piece in stream:
            sys.stdout.write(piece)
            sys.stdout.flush()
    finally:
        chat.close()
    sys.stdout.write("\n")
    r = stream.response
    if r is None:
        return
    rate = r.usage.completion_tokens / r.latency_s if r.latency_s > 0 and not r.cached else 0.0
    cost = f", ${r.cost_usd:.4f}" if r.cost_usd else ""
    err_console.print(
        f"[dim]{r.provider}:{r.model} · {r.usage.prompt_tokens} prompt + "
        f"{r.usage.completion_tokens} completion tokens · {rate:.1f} tok/s · "
        f"{r.latency_s:.2f} s{cost} · cached={'yes' if r.cached else 'no'}[/]",
        highlight=False,
        soft_wrap=True,
    )


def register(app: typer.Typer) -> None:
    app.command("ask")(ask)
