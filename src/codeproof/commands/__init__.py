"""CLI command groups; each module exposes ``register(app)``."""

from __future__ import annotations

from types import ModuleType

from codeproof.commands import (
    ask,
    doctor,
    eval,
    eval_pair,
    eval_replay,
    eval_requests,
    index,
    mcp,
    models,
    new,
    runs,
    sandbox,
    search,
    serve,
    tokens,
)

COMMAND_MODULES: list[ModuleType] = [
    doctor,
    ask,
    models,
    mcp,
    sandbox,
    eval,
    eval_replay,
    eval_pair,
    eval_requests,
    new,
    runs,
    serve,
    tokens,
    index,
    search,
]
