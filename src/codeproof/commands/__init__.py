"""CLI command groups; each module exposes ``register(app)``."""

from __future__ import annotations

from types import ModuleType

from codeproof.commands import doctor

COMMAND_MODULES: list[ModuleType] = [doctor]
