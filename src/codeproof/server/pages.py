"""Jinja2 rendering of the web page's templates (autoescaped)."""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape


@functools.cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("codeproof.server", "templates"),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["clock"] = lambda ts: datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M:%S")
    return env


def render_text(template: str, context: dict[str, Any]) -> str:
    return environment().get_template(template).render(**context)


def render(
    request: Request, template: str, context: dict[str, Any], status_code: int = 200
) -> HTMLResponse:
    """A page or fragment; ``csrf`` and ``user`` come from ``request.state`` when set."""
    base = {
        "csrf": getattr(request.state, "csrf", ""),
        "user": getattr(request.state, "user", ""),
    }
    return HTMLResponse(render_text(template, {**base, **context}), status_code=status_code)
