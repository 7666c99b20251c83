"""Docker-specific hardening: what the container is created with."""

from __future__ import annotations

import docker.errors
import pytest

from codeproof.core.config import load_settings
from codeproof.sandbox.base import Limits
from codeproof.sandbox.docker_backend import DockerSandbox, connect
from codeproof.sandbox.images import KEEPER_UID

pytestmark = pytest.mark.docker


@pytest.fixture
def sandbox() -> DockerSandbox:
    if connect() is None:
        pytest.skip("no Docker daemon")
    return DockerSandbox(load_settings())


def test_container_is_hardened(sandbox: DockerSandbox) -> None:
    limits = Limits(memory_bytes=200 * 1024**2, pids=77, disk_bytes=16 * 1024**2, cpus=0.5)
    with sandbox.open("python", limits) as box:
        container_id = box.container_id
        container = sandbox.client().containers.get(container_id)
        host = container.attrs["HostConfig"]
        assert host["NetworkMode"] == "none"
        assert host["ReadonlyRootfs"] is True
        assert host["CapDrop"] == ["ALL"]
        assert "no-new-privileges" in host["SecurityOpt"]
        assert (host["PidsLimit"], host["Memory"], host["NanoCpus"]) == (77, 200 * 1024**2, 5e8)
        assert host["LogConfig"]["Type"] == "none"
        assert set(host["Tmpfs"]) == {"/tmp", "/workspace"}
        assert host["Binds"] in (None, [])
        assert {u["Name"] for u in host["Ulimits"]} >= {"nofile", "fsize"}
        assert container.attrs["Config"]["User"] == f"{KEEPER_UID}:{KEEPER_UID}"
        assert box.run(["id", "-u"]).stdout == "1000\n"
        caps = box.run(["sh", "-c", "grep CapEff /proc/self/status"]).stdout
        assert caps.split()[-1] == "0000000000000000"
    with pytest.raises(docker.errors.NotFound):
        sandbox.client().containers.get(container_id)
