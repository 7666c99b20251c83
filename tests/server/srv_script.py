"""Test-only entry points: a server process with the scripted model (FakeModel is not a
registered provider, so ``codeproof serve`` cannot load it)::

    python srv_script.py http HOME PORT [docker]   # the app (as codeproof serve)
    python srv_script.py stdio HOME                # MCP on stdio (as codeproof mcp serve)

``docker``: tests run by the Python toolchain in the Docker sandbox (else the scripted
double). ``two``: the world is srv_world.TWO_MODULES (else ESCALATING).
"""

from __future__ import annotations

import sys
from pathlib import Path

from srv_world import ESCALATING, TWO_MODULES, engine, scripted_toolchains, server_settings

from codeproof.server.launch import check_bind, serve_http, serve_stdio
from codeproof.server.state import ServerState
from codeproof.toolchains.client import started_toolchains


def main(argv: list[str]) -> int:
    mode, home = argv[0], Path(argv[1])
    port = int(argv[2]) if mode == "http" else 0
    settings = server_settings(home, port=port)
    docker = "docker" in argv[3:]
    if docker:
        settings = settings.model_copy(
            update={"sandbox": settings.sandbox.model_copy(update={"backend": "docker"})}
        )
    toolchains = started_toolchains(settings) if docker else scripted_toolchains
    world = TWO_MODULES if "two" in argv[3:] else ESCALATING
    state = ServerState.build(engine(settings, world, toolchains))
    if mode == "http":
        check_bind(settings)
        serve_http(state)
    else:
        serve_stdio(state, "local")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
