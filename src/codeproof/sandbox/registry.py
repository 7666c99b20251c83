"""Choose and open sandbox backends.

``auto`` picks Docker when a daemon answers and the language image exists or can
be built, else bubblewrap, else refuses with a fix. ``unsafe-local`` is never
chosen automatically.

Usage::

    with open_session(settings, image) as session:
        session.put_files({"test_a.py": "def test_a(): assert 1"})
        result = session.run(["python3", "-m", "pytest", "-q"])
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Protocol

from codeproof.core.config import Settings
from codeproof.core.errors import ConfigError, SandboxUnavailableError
from codeproof.sandbox._common import parse_size
from codeproof.sandbox.base import Limits, Sandbox, SandboxSession
from codeproof.sandbox.bwrap_backend import BubblewrapSandbox
from codeproof.sandbox.docker_backend import DockerSandbox
from codeproof.sandbox.local_backend import UnsafeLocalSandbox


class Backend(Sandbox, Protocol):
    """What the registry needs from a backend class beyond :class:`Sandbox`."""

    def __init__(self, settings: Settings) -> None: ...

    def can_serve(self, language: str) -> bool:
        """Whether a session for ``language`` can be opened (image present or buildable)."""
        ...


BACKENDS: dict[str, type[Backend]] = {
    "docker": DockerSandbox,
    "bubblewrap": BubblewrapSandbox,
    "unsafe-local": UnsafeLocalSandbox,
}
#: Tried in order by ``auto``.
AUTO_ORDER = ("docker", "bubblewrap")
_FIX = (
    "run `bash scripts/ensure-sandbox.sh` then `codeproof sandbox build` as root (installs "
    "docker.io/bubblewrap/debootstrap), or pass --sandbox unsafe-local to run without isolation"
)


def limits_from_settings(settings: Settings) -> Limits:
    """The per-session limits configured in ``[sandbox]``."""
    cfg = settings.sandbox
    return Limits(
        timeout_s=cfg.timeout_s,
        memory_bytes=parse_size(cfg.memory),
        cpus=cfg.cpus,
        pids=cfg.pids,
        output_bytes=cfg.output_limit,
        disk_bytes=parse_size(cfg.disk),
    )


def get_sandbox(
    settings: Settings, backend: str | None = None, language: str | None = None
) -> Backend:
    """The backend named ``backend`` (default: ``sandbox.backend``), checked usable.

    Args:
        settings: Settings.
        backend: ``auto``, ``docker``, ``bubblewrap`` or ``unsafe-local``.
        language: When given, ``auto`` also requires that backend to serve it.

    Raises:
        ConfigError: Unknown backend name.
        SandboxUnavailableError: The backend (or, for auto, every backend) cannot run here.
    """
    name = backend or settings.sandbox.backend
    if name == "auto":
        for candidate in AUTO_ORDER:
            sandbox = BACKENDS[candidate](settings)
            if sandbox.can_serve(language) if language else sandbox.available():
                return sandbox
        raise SandboxUnavailableError(
            "neither Docker nor bubblewrap is usable", backend="auto", hint=_FIX
        )
    if name not in BACKENDS:
        raise ConfigError(
            f"unknown sandbox backend {name!r}",
            hint=f"use one of: auto, {', '.join(BACKENDS)}",
        )
    sandbox = BACKENDS[name](settings)
    if not sandbox.available():
        raise SandboxUnavailableError(
            f"the {name} backend cannot run here", backend=name, hint=_FIX
        )
    return sandbox


def start_session(
    settings: Settings,
    language: str,
    limits: Limits | None = None,
    backend: str | None = None,
) -> SandboxSession:
    """A started session for ``language``; the caller closes it."""
    sandbox = get_sandbox(settings, backend, language)
    return sandbox.open(language, limits or limits_from_settings(settings))


@contextlib.contextmanager
def open_session(
    settings: Settings,
    language: str,
    limits: Limits | None = None,
    backend: str | None = None,
) -> Iterator[SandboxSession]:
    """Open a session for ``language``; it is closed (everything removed) on exit."""
    session = start_session(settings, language, limits, backend)
    try:
        yield session
    finally:
        session.close()
