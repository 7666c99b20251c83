"""``codeproof doctor`` check of the toolchain servers."""

from __future__ import annotations

import os
import shutil

from codeproof.core.checks import CheckResult
from codeproof.core.config import Settings
from codeproof.toolchains.router import ResolvedServer, servers


def _executable_found(server: ResolvedServer) -> bool:
    program = server.command[0] if server.command else ""
    if not program:
        return False
    if os.sep in program:
        return os.path.isfile(program) and os.access(program, os.X_OK)
    return shutil.which(program) is not None


def check_toolchains(settings: Settings) -> CheckResult:
    """Every configured language resolves to a server whose executable exists.

    Servers are not started here (a start takes seconds each); the sandbox checks
    cover what they run on.
    """

    table = servers(settings)
    missing = sorted(
        language for language, server in table.items() if not _executable_found(server)
    )
    if missing:
        commands = "; ".join(
            f"{lang}: {' '.join(table[lang].command) or '(empty)'}" for lang in missing
        )
        return CheckResult(
            "toolchains",
            False,
            f"server executable not found for {commands}",
            fix="fix `command` of [toolchains.<language>] in codeproof.toml (see docs/mcp.md)",
            required=False,
        )
    return CheckResult(
        "toolchains", True, f"MCP servers configured for {', '.join(sorted(table))}", required=False
    )
