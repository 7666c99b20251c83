"""Stopping the server does not wait for a model reply in flight: the reply ends at its
next token, the workers stop, and the run continues at the next start."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import httpx
from srv_world import GOOD, World, engine, live_server, scripted_toolchains, server_settings

from codeproof.llm.base import Message
from codeproof.llm.fake import FakeModel, said
from codeproof.server.engine import Engine
from codeproof.server.state import ServerState
from codeproof.workflow.store import RunStore

BODY = {
    "assistant_id": "codeproof",
    "input": {"request": "a slugify function", "options": {"yes": True}},
}


class Replying:
    """A model whose test designer decodes until the model is interrupted, as a local
    model's reply does (it checks the interruption at each token)."""

    def __init__(self) -> None:
        world = World()
        self.in_call = threading.Event()
        self.closed = threading.Event()
        designer = (lambda m: "You write python tests" in said(m), self._decode)
        self.model = FakeModel(rules=[designer, *world.rules()])

    def _decode(self, messages: list[Message]) -> str:
        self.in_call.set()
        while not self.model.interrupted:
            time.sleep(0.01)
        raise self.model.interruption()

    def engine(self, home: Path) -> Engine:
        settings = server_settings(home)
        return Engine(
            settings,
            self.model,
            scripted_toolchains,
            ("python",),
            on_close=self.closed.set,
            on_interrupt=self.model.interrupt,
        )


def test_stopping_the_server_ends_a_reply_in_flight_and_the_next_start_finishes(tmp_path):
    home = tmp_path / "home"
    replying = Replying()
    first = ServerState.build(replying.engine(home))
    with live_server(first) as url, httpx.Client(base_url=url, timeout=60) as http:
        tid = http.post("/threads", json={}).json()["thread_id"]
        run = http.post(f"/threads/{tid}/runs", json=BODY).json()
        assert replying.in_call.wait(60), "the run never reached the test designer"
    # leaving the server ran its shutdown: the workers stopped, so it closed the model
    assert replying.closed.is_set()
    assert first.threads.run(run["run_id"]).status == "running"  # kept for the next start
    with RunStore(home / "runs") as store:
        assert store.get_run(tid).status == "paused"

    second = ServerState.build(engine(server_settings(home), World()))
    with live_server(second) as url, httpx.Client(base_url=url, timeout=60) as http:
        http.get(f"/threads/{tid}/runs/{run['run_id']}/join")
    assert second.threads.run(run["run_id"]).status == "success"
    with RunStore(home / "runs") as store:
        assert store.get_run(tid).status == "done"
    written = list((home / "projects").rglob("slugify.py"))
    assert [p.read_text() for p in written] == [GOOD]
