"""bubblewrap-specific: what a session sets up on the host and that close removes it."""

from __future__ import annotations

import os

import pytest

from codeproof.core.config import load_settings
from codeproof.sandbox.base import Limits
from codeproof.sandbox.bwrap_backend import BubblewrapSandbox, bwrap_works
from codeproof.sandbox.procs import CgroupV1

pytestmark = pytest.mark.bwrap


@pytest.fixture
def sandbox() -> BubblewrapSandbox:
    if not bwrap_works():
        pytest.skip("bubblewrap unusable")
    return BubblewrapSandbox(load_settings())


def test_close_unmounts_and_removes_everything(sandbox: BubblewrapSandbox) -> None:
    box = sandbox.open("python", Limits(disk_bytes=8 * 1024**2))
    host_dir = box.host_dir
    assert host_dir is not None and (host_dir / "workspace").is_dir()
    cgroups = list(box._cgroup.dirs) if box._cgroup else []
    if os.geteuid() == 0:
        assert os.path.ismount(host_dir) and os.path.ismount(host_dir / "root")
        assert CgroupV1.supported() == bool(cgroups)
    box.put_files({"a.txt": "x"})
    box.close()
    assert not host_dir.exists()
    assert not any(path.exists() for path in cgroups)


def test_tree_is_read_only_even_for_the_host_view(sandbox: BubblewrapSandbox) -> None:
    if os.geteuid() != 0:
        pytest.skip("the read-only bind of the tree is made as root")
    with sandbox.open("python", Limits()) as box:
        assert box.host_dir is not None
        with pytest.raises(OSError):
            (box.host_dir / "root" / "evil").write_text("x")
