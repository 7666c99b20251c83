"""A toolchain server on Docker starts each call's container ahead of the call and leaves
no container behind when its client goes."""

from __future__ import annotations

import time
from typing import Any

import pytest
from toolchain_cases import CASES, mcp_session, server_params

from codeproof.core.types import TestReport
from codeproof.sandbox.docker_backend import OWNER_LABEL, connect
from codeproof.sandbox.images import LABEL
from codeproof.sandbox.procs import owner_alive, owner_tag

pytestmark = pytest.mark.docker


def _others(client: Any) -> dict[str, str]:
    """Sandbox containers of live processes other than this one: ``{id: owner}``."""
    mine = owner_tag()
    found = {}
    for container in client.containers.list(all=True, filters={"label": LABEL}):
        owner = (container.labels or {}).get(OWNER_LABEL, "")
        if owner != mine:
            found[container.id] = owner
    return found


def test_each_call_gets_a_fresh_container_started_ahead_and_none_is_left(
    docker_daemon: None,
) -> None:
    client = connect()
    assert client is not None
    before = _others(client)
    cases = CASES["python"]
    with mcp_session(server_params("python")) as mcp:
        ids = []
        for _ in range(3):
            report = TestReport.model_validate(
                mcp.structured("run_tests", {"files": cases.module, "tests": cases.tests})
            )
            assert report.green
            time.sleep(1.5)  # the spare for the next call starts meanwhile
            spares = {c: o for c, o in _others(client).items() if c not in before}
            assert len(spares) == 1, spares  # one idle, started container: the next call's
            ids += list(spares)
        server = next(iter(spares.values()))
        assert owner_alive(server)
        assert len(set(ids)) == 3  # a container is never used twice
    leftovers = [c for c, owner in _others(client).items() if owner == server]
    assert leftovers == []
