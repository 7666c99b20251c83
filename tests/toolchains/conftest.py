"""Fixtures of the toolchain suites: real MCP servers on the real (Docker) sandbox."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from toolchain_cases import CASES, Cases, SyncMcp, mcp_session, server_params

from codeproof.core.config import load_settings
from codeproof.sandbox.docker_backend import DockerSandbox


@pytest.fixture(scope="session")
def docker_daemon() -> None:
    """Skips when no Docker daemon answers (the images must then exist: `make sandbox`)."""
    if not DockerSandbox(load_settings()).available():
        pytest.skip("no Docker daemon reachable")


@pytest.fixture(scope="module", params=sorted(CASES))
def toolchain_cases(request: pytest.FixtureRequest) -> Cases:
    """The sources of one language (parametrized over python, node, java)."""
    return CASES[str(request.param)]


@pytest.fixture(scope="module")
def mcp(docker_daemon: None, toolchain_cases: Cases) -> Iterator[SyncMcp]:
    """One MCP client session per language against `codeproof mcp toolchain <name>`."""
    with mcp_session(server_params(toolchain_cases.toolchain)) as session:
        yield session
