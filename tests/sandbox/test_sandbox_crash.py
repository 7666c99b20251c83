"""An orchestrator SIGKILLed mid-run leaves nothing behind after the next start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import docker.errors
import pytest

from codeproof.sandbox import bwrap_backend, docker_backend
from codeproof.sandbox.images import LABEL

ORCHESTRATOR = textwrap.dedent(
    """
    import sys
    from codeproof.core.config import load_settings
    from codeproof.sandbox.registry import BACKENDS
    from codeproof.sandbox.base import Limits

    limits = Limits(timeout_s=float(sys.argv[2]))
    box = BACKENDS[sys.argv[1]](load_settings()).open("python", limits)
    handle = getattr(box, "container_id", None) or str(box.host_dir)
    print(handle, flush=True)
    box.run(["sh", "-c", "echo $$ > /workspace/pid; exec sleep 120"])
    """
)


def _start_and_kill(backend: str, timeout_s: float = 120) -> str:
    proc = subprocess.Popen(
        [sys.executable, "-c", ORCHESTRATOR, backend, str(timeout_s)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    handle = proc.stdout.readline().strip()
    time.sleep(1.5)  # let the run start
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    return handle


@pytest.mark.docker
def test_killed_orchestrator_leaks_no_container(sandbox_settings: object) -> None:
    client = docker_backend.connect()
    if client is None:
        pytest.skip("no Docker daemon")
    container_id = _start_and_kill("docker", timeout_s=3)
    assert container_id
    # The orphaned run ends at the in-container deadline (3 + 5 s) even before any
    # reaping (another process starting a session may also reap it first).
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and _runs_sleeper(client, container_id):
        time.sleep(0.5)
    assert not _runs_sleeper(client, container_id)
    docker_backend.reap_leftovers(client)  # what the next start does
    remaining = client.containers.list(all=True, filters={"label": LABEL})
    assert container_id not in {c.id for c in remaining}


@pytest.mark.bwrap
def test_killed_orchestrator_leaks_no_process_or_workspace() -> None:
    if not bwrap_backend.bwrap_works():
        pytest.skip("bubblewrap unusable")
    workspace = Path(_start_and_kill("bubblewrap"))
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _sleepers():
        time.sleep(0.1)
    assert _sleepers() == []  # --die-with-parent took the run down
    bwrap_backend.reap_leftovers()  # what the next start does
    assert not workspace.exists()


def _sleepers() -> list[int]:
    """Host pids of ``sleep 120`` processes (the orphaned run would be one)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if cmdline == b"sleep\x00120\x00" and int(entry.name) != os.getpid():
            found.append(int(entry.name))
    return found


def _runs_sleeper(client: Any, container_id: str) -> bool:
    try:
        processes = client.containers.get(container_id).top()["Processes"]
    except docker.errors.APIError:  # gone, or being removed by another process's reaper
        return False
    return any("sleep 120" in " ".join(row) for row in processes)
