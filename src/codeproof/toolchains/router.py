"""Which MCP server serves which language.

Each registered language (:mod:`codeproof.languages.registry`) is served by
``codeproof mcp toolchain <toolchain>`` run with the current interpreter. Entries of
``[toolchains.<language>]`` in ``codeproof.toml`` add languages or replace built-in
servers without code changes::

    [toolchains.go]
    command = ["my-go-toolchain-server", "--stdio"]
    env = { GOFLAGS = "-mod=mod" }
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from codeproof.core.config import Settings, ToolchainServer
from codeproof.core.errors import UnknownLanguageError
from codeproof.languages import registry


@dataclass(frozen=True)
class ResolvedServer:
    """How to start the MCP server of one language.

    Attributes:
        language: Canonical language name.
        command: Executable and arguments.
        env: Extra environment variables of the server process.
        builtin: Whether it is one of codeproof's own servers.
    """

    language: str
    command: list[str]
    env: dict[str, str] = field(default_factory=dict)
    builtin: bool = False


def canonical_language(language: str) -> str:
    """Lower-case name; a registered language's alias gives its name (``JS`` -> the
    JavaScript language). Other names (``python-docker``) are kept as they are."""
    name = language.strip().lower()
    known = next((lang for lang in registry.languages() if lang.spelled(name)), None)
    return known.name if known is not None else name


def builtin_command(toolchain: str) -> list[str]:
    """The command of a built-in toolchain server."""
    return [sys.executable, "-m", "codeproof", "mcp", "toolchain", toolchain]


def servers(settings: Settings) -> dict[str, ResolvedServer]:
    """Every configured language and its server: built-ins, then ``settings.toolchains``."""
    table = {
        language.name: ResolvedServer(
            language.name, builtin_command(language.toolchain_name), builtin=True
        )
        for language in registry.BUILTIN
    }
    for name, server in settings.toolchains.items():
        language = canonical_language(name)
        table[language] = _user_server(language, server)
    return table


def _user_server(language: str, server: ToolchainServer) -> ResolvedServer:
    return ResolvedServer(language, list(server.command), dict(server.env))


def languages(settings: Settings) -> list[str]:
    """Sorted names of the configured languages."""
    return sorted(servers(settings))


def resolve(settings: Settings, language: str) -> ResolvedServer:
    """The server of ``language`` (aliases accepted).

    Raises:
        UnknownLanguageError: No server is configured for it; lists the configured ones.
    """
    table = servers(settings)
    try:
        return table[canonical_language(language)]
    except KeyError:
        raise UnknownLanguageError(language, sorted(table)) from None


def settings_env(settings: Settings) -> dict[str, str]:
    """``CODEPROOF_*`` variables that give a built-in server the caller's sandbox settings.

    The server is a separate process: it would otherwise re-read configuration files
    and miss overrides made in this process (CLI flags such as ``--sandbox``).
    """
    env = {"CODEPROOF_HOME": str(settings.home), "CODEPROOF_LOG_LEVEL": settings.log_level}
    for key, value in settings.sandbox.model_dump().items():
        if value is not None:
            env[f"CODEPROOF_SANDBOX__{key.upper()}"] = str(value)
    return env
