"""Fixtures of the sandbox suites: backends (skipped when unusable) and small limits."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sandbox_cases import SMALL, OpenSession

from codeproof.core.config import Settings, load_settings
from codeproof.sandbox.base import SandboxSession
from codeproof.sandbox.registry import BACKENDS


@pytest.fixture(scope="session")
def sandbox_settings() -> Settings:
    """Default settings (the language images live under ``settings.home``)."""
    return load_settings()


@pytest.fixture(scope="session")
def _usable(sandbox_settings: Settings) -> dict[str, bool]:
    return {name: cls(sandbox_settings).can_serve("python") for name, cls in BACKENDS.items()}


@pytest.fixture
def backend(request: pytest.FixtureRequest, _usable: dict[str, bool]) -> str:
    """The parametrized backend name; skips when it cannot run here."""
    name = str(request.param)
    if not _usable[name]:
        pytest.skip(f"{name} backend is not usable here")
    return name


@pytest.fixture
def open_box(backend: str, sandbox_settings: Settings) -> Iterator[OpenSession]:
    """Open sessions of ``backend`` (small limits by default); all closed at teardown."""
    sessions: list[SandboxSession] = []

    def _open(language: str = "python", **overrides: object) -> SandboxSession:
        limits = SMALL.model_copy(update=overrides)
        session = BACKENDS[backend](sandbox_settings).open(language, limits)
        sessions.append(session)
        return session

    yield _open
    for session in sessions:
        session.close()
