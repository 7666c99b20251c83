"""Constants shared by the sandbox test modules."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from codeproof.sandbox.base import Limits, SandboxSession

#: Small limits keep the attacks fast and the host safe.
SMALL = Limits(
    timeout_s=10,
    memory_bytes=160 * 1024**2,
    cpus=1.0,
    pids=64,
    output_bytes=64 * 1024,
    disk_bytes=32 * 1024**2,
)
ISOLATED = [
    pytest.param("docker", marks=pytest.mark.docker, id="docker"),
    pytest.param("bubblewrap", marks=pytest.mark.bwrap, id="bubblewrap"),
]
ALL = [*ISOLATED, pytest.param("unsafe-local", id="unsafe-local")]

OpenSession = Callable[..., SandboxSession]
