"""Fixtures of the server tests: settings under tmp_path, a scripted engine, an app
(TestClient) and a live uvicorn server on a free loopback port."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from srv_world import engine, live_server, server_settings

from codeproof.core.config import Settings, load_settings
from codeproof.sandbox.docker_backend import DockerSandbox
from codeproof.server.app import create_app
from codeproof.server.state import ServerState
from codeproof.toolchains.client import open_toolchain
from codeproof.workflow.deps import ToolchainLike


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return server_settings(tmp_path / "home")


@pytest.fixture
def state(settings: Settings) -> ServerState:
    return ServerState.build(engine(settings))


@pytest.fixture
def client(state: ServerState) -> Iterator[TestClient]:
    with TestClient(create_app(state, mcp=False), base_url="http://127.0.0.1") as c:
        yield c


@pytest.fixture
def live(state: ServerState) -> Iterator[str]:
    with live_server(state) as url:
        yield url


@pytest.fixture(scope="session")
def real_toolchains() -> Callable[[str], ToolchainLike]:
    """Language -> a started MCP toolchain client on the Docker sandbox (each run closes
    its own); skips when no Docker daemon answers."""
    settings = load_settings(sandbox={"backend": "docker"})
    if not DockerSandbox(settings).available():
        pytest.skip("no Docker daemon reachable")

    return lambda language: open_toolchain(settings, language)
