"""Fixtures of the workflow tests: toolchains (the in-memory double running the scripted,
trusted Python of the tests in-process, or the real one on the Docker sandbox) and a run
store."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from codeproof.core.config import Settings, load_settings
from codeproof.llm.base import ChatModel
from codeproof.sandbox.docker_backend import DockerSandbox
from codeproof.toolchains.client import ToolchainClient, open_toolchain
from codeproof.workflow.deps import RunOptions, ToolchainLike
from codeproof.workflow.humans import Human
from codeproof.workflow.runner import Runner, RunResult
from codeproof.workflow.store import RunStore
from inproc import memory_python_toolchain


def _docker_reachable() -> bool:
    # the product's own check: it asks the socket before the Docker SDK, which leaks an
    # unclosed socket when no daemon answers (a ResourceWarning in a later test)
    return DockerSandbox(load_settings()).available()


@pytest.fixture(scope="session")
def wf_settings() -> Settings:
    return load_settings(sandbox={"backend": "docker"})


class _Shared:
    """A shared started client whose ``close`` is left to the session fixture."""

    def __init__(self, client: ToolchainClient) -> None:
        self._client = client

    @property
    def calls(self) -> list[Any]:
        return self._client.calls

    def run_tests(
        self, files: dict[str, str], tests: dict[str, str], timeout_s: float | None = None
    ) -> Any:
        return self._client.run_tests(files, tests, timeout_s)

    def run(
        self,
        files: dict[str, str],
        command_args: list[str],
        stdin: str | None = None,
        timeout_s: float | None = None,
    ) -> Any:
        return self._client.run(files, command_args, stdin, timeout_s)

    def conventions(self) -> str:
        return self._client.conventions()

    def close(self) -> None:
        """Kept open for the next test."""


@pytest.fixture(scope="session")
def real_toolchains(wf_settings: Settings) -> Iterator[Callable[[str], ToolchainLike]]:
    """Language -> the real MCP toolchain client (Docker sandbox), shared by the session."""
    if not _docker_reachable():
        pytest.skip("no Docker daemon reachable")
    clients: dict[str, ToolchainClient] = {}

    def factory(language: str) -> ToolchainLike:
        if language not in clients:
            client = ToolchainClient(wf_settings, language)
            client.start()
            clients[language] = client
        return _Shared(clients[language])

    yield factory
    for client in clients.values():
        client.close()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    with RunStore(tmp_path / "runs") as s:
        yield s


RunFn = Callable[..., RunResult]


@pytest.fixture
def memory_toolchains() -> Callable[[str], ToolchainLike]:
    """Language -> the in-memory toolchain double (Python only; no sandbox, no Docker)."""

    def factory(language: str) -> ToolchainLike:
        if language != "python":
            pytest.skip(f"the in-memory toolchain runs scripted Python only, not {language}")
        return memory_python_toolchain()

    return factory


@pytest.fixture
def run_workflow(
    wf_settings: Settings,
    store: RunStore,
    memory_toolchains: Callable[[str], ToolchainLike],
    tmp_path: Path,
) -> RunFn:
    """Start a run with a model and a human on the in-memory toolchain; options as
    keyword arguments."""

    def run(
        model: ChatModel, human: Human, request: str = "a slugify function", **options: Any
    ) -> RunResult:
        opts = RunOptions(out_dir=str(tmp_path / "out"), **options)
        runner = Runner(wf_settings, store, model, memory_toolchains, human)
        return runner.start(request, opts)

    return run


def docker_toolchain(language: str) -> Iterator[ToolchainClient]:
    """A started toolchain on the Docker sandbox (skips when no daemon answers)."""
    settings: Settings = load_settings()
    if not DockerSandbox(settings).available():
        pytest.skip("no Docker daemon reachable")
    docker = settings.model_copy(
        update={"sandbox": settings.sandbox.model_copy(update={"backend": "docker"})}
    )
    with open_toolchain(docker, language) as client:
        yield client


@pytest.fixture(scope="session")
def python_toolchain() -> Iterator[ToolchainClient]:
    yield from docker_toolchain("python")


@pytest.fixture(scope="session")
def javascript_toolchain() -> Iterator[ToolchainClient]:
    yield from docker_toolchain("javascript")


@pytest.fixture(scope="session")
def java_toolchain() -> Iterator[ToolchainClient]:
    yield from docker_toolchain("java")
