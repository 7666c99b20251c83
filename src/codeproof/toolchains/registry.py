"""The built-in toolchains, by name (the ``<name>`` of ``codeproof mcp toolchain <name>``)."""

from __future__ import annotations

from codeproof.core.errors import InputError
from codeproof.toolchains.base import Toolchain
from codeproof.toolchains.java import JavaToolchain
from codeproof.toolchains.node import NodeToolchain
from codeproof.toolchains.python import PythonToolchain

TOOLCHAINS: dict[str, Toolchain] = {
    toolchain.name: toolchain for toolchain in (PythonToolchain(), NodeToolchain(), JavaToolchain())
}


def get_toolchain(name: str) -> Toolchain:
    """The built-in toolchain called ``name``.

    Raises:
        InputError: No built-in toolchain has that name.
    """
    try:
        return TOOLCHAINS[name]
    except KeyError:
        raise InputError(
            f"no built-in toolchain {name!r}", hint=f"use one of: {', '.join(TOOLCHAINS)}"
        ) from None
