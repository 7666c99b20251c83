"""The built-in toolchains, by name (the ``<name>`` of ``codeproof mcp toolchain <name>``).

Each registered language brings its toolchain (:attr:`codeproof.languages.base.Language`).
"""

from __future__ import annotations

from codeproof.core.errors import InputError
from codeproof.languages import registry
from codeproof.toolchains.base import Toolchain


def toolchain_names() -> list[str]:
    """The names of the built-in toolchains, one per registered language."""
    return [lang.toolchain_name for lang in registry.languages() if lang.make_toolchain]


def get_toolchain(name: str) -> Toolchain:
    """The built-in toolchain called ``name``.

    Raises:
        InputError: No built-in toolchain has that name.
    """
    for language in registry.languages():
        if language.toolchain_name == name and language.make_toolchain is not None:
            return language.make_toolchain()
    raise InputError(
        f"no built-in toolchain {name!r}", hint=f"use one of: {', '.join(toolchain_names())}"
    )
