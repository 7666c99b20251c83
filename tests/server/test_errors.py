"""Bad input gets a 4xx with a one-line JSON error that says what to fix, and nothing is
written: invalid JSON, unknown threads, answers that do not fit, empty or oversized
requests, too many runs, wrong content types and cross-site writes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from srv_world import World, engine, server_settings

from codeproof.server.app import create_app
from codeproof.server.queue import Execute
from codeproof.server.state import ServerState
from codeproof.workflow.store import RunStore

START = {"assistant_id": "codeproof", "input": {"request": "a slugify function"}}


class HeldQueue:
    """A queue double that keeps what it is given (runs stay pending)."""

    def __init__(self, execute: Execute, workers: int) -> None:
        self.execute = execute
        self.held: list[str] = []

    workers = 1
    stopping = False

    def start(self) -> None:
        """Nothing runs."""

    def submit(self, run_id: str) -> None:
        self.held.append(run_id)

    def stop(self, timeout_s: float = 30.0) -> bool:
        """Nothing to stop."""
        return True

    def run_all(self) -> None:
        while self.held:
            self.execute(self.held.pop(0))


def build(tmp_path: Any, world: World | None = None, **server: Any) -> ServerState:
    settings = server_settings(tmp_path / "home", **server)
    return ServerState.build(engine(settings, world or World()), queue=HeldQueue)


@pytest.fixture
def held(tmp_path: Any) -> Iterator[tuple[TestClient, ServerState]]:
    state = build(tmp_path, max_request_chars=200, max_body_bytes=4096, runs_per_minute=3)
    with TestClient(create_app(state, mcp=False), base_url="http://127.0.0.1") as c:
        yield c, state


def counts(state: ServerState) -> tuple[int, int, int]:
    threads = state.db.row("SELECT COUNT(*) FROM threads")
    runs = state.db.row("SELECT COUNT(*) FROM api_runs")
    with RunStore(state.settings.runs_dir) as store:
        wf = len(store.list_runs())
    assert threads is not None and runs is not None
    return int(threads[0]), int(runs[0]), wf


def refused(response: Any, status: int, words: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert words in body["detail"], body
    assert "\n" not in body["detail"]
    return body


def test_invalid_json_is_400(held):
    client, state = held
    before = counts(state)
    r = client.post(
        "/threads", content=b'{"metadata": ', headers={"content-type": "application/json"}
    )
    body = refused(r, 400, "invalid JSON")
    assert body["hint"]
    assert counts(state) == before


def test_unknown_thread_and_assistant_are_404(held):
    client, _ = held
    refused(client.get("/threads/nope"), 404, "no thread 'nope'")
    refused(client.post("/threads/nope/runs", json=START), 404, "no thread 'nope'")
    tid = client.post("/threads", json={}).json()["thread_id"]
    refused(
        client.post(f"/threads/{tid}/runs", json={**START, "assistant_id": "x"}),
        404,
        "no assistant",
    )
    refused(client.get("/no/such/route"), 404, "no route")


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({**START, "input": {"request": "   "}}, 422, "the request is empty"),
        ({**START, "input": {"request": "x" * 201}}, 413, "the limit is 200"),
        ({**START, "input": {"request": "a", "lang": "cobol"}}, 422, "no toolchain for language"),
        (
            {**START, "input": {"request": "a", "options": {"provider": "x"}}},
            422,
            "input.options.provider",
        ),
        ({**START, "input": {"request": "a", "options": {"candidates": 0}}}, 422, "candidates"),
        ({**START, "webhook": "http://x"}, 422, "webhook is not supported"),
        (
            {**START, "command": {"resume": {"proceed": True}}},
            422,
            "either input or command.resume",
        ),
        ({"assistant_id": "codeproof"}, 422, "needs input"),
        ({"input": {"request": "a"}}, 422, "assistant_id"),
    ],
)
def test_bad_run_requests_are_refused_and_write_nothing(held, body, status, words):
    client, state = held
    tid = client.post("/threads", json={}).json()["thread_id"]
    before = counts(state)
    refused(client.post(f"/threads/{tid}/runs", json=body), status, words)
    assert counts(state) == before


def test_an_oversized_body_is_413_before_any_handler(held):
    client, state = held
    before = counts(state)
    big = {"metadata": {"x": "y" * 5000}}
    refused(client.post("/threads", json=big), 413, "the limit is 4096")
    assert counts(state) == before


def test_non_json_writes_and_cross_site_writes_are_refused(held):
    client, state = held
    r = client.post("/threads", content=b"{}", headers={"content-type": "text/plain"})
    refused(r, 415, "must be JSON")
    r = client.post("/threads", json={}, headers={"origin": "http://evil.example"})
    refused(r, 403, "cross-site request")
    assert counts(state)[0] == 0


def test_an_answer_the_question_does_not_accept_is_422(tmp_path):
    state = build(tmp_path, World(questions=[["Unicode?"]]))
    with TestClient(create_app(state, mcp=False), base_url="http://127.0.0.1") as client:
        tid = client.post("/threads", json={}).json()["thread_id"]
        body = {"assistant_id": "codeproof", "command": {"resume": {"proceed": True}}}
        refused(client.post(f"/threads/{tid}/runs", json=body), 409, "not waiting for an answer")
        client.post(f"/threads/{tid}/runs", json=START)
        queue = state.queue
        assert isinstance(queue, HeldQueue)
        refused(client.post(f"/threads/{tid}/runs", json=START), 409, "in progress")
        queue.run_all()
        assert client.get(f"/threads/{tid}").json()["status"] == "interrupted"
        before = counts(state)
        for bad, words in [
            ({"answers": []}, "give at least one answer or proceed=true"),
            ({"action": "continue"}, "does not fit the clarify question"),
            ("yes", "does not fit the clarify question"),
        ]:
            body = {"assistant_id": "codeproof", "command": {"resume": bad}}
            refused(client.post(f"/threads/{tid}/runs", json=body), 422, words)
        refused(client.post(f"/threads/{tid}/runs", json=START), 409, "already has its request")
        assert counts(state) == before
        ok = {"assistant_id": "codeproof", "command": {"resume": {"answers": ["ASCII"]}}}
        assert client.post(f"/threads/{tid}/runs", json=ok).status_code == 200


def test_too_many_runs_are_429_with_retry_after(tmp_path):
    state = build(tmp_path, runs_per_minute=2, max_active_runs=5)
    with TestClient(create_app(state, mcp=False), base_url="http://127.0.0.1") as client:
        for _ in range(2):
            tid = client.post("/threads", json={}).json()["thread_id"]
            assert client.post(f"/threads/{tid}/runs", json=START).status_code == 200
        tid = client.post("/threads", json={}).json()["thread_id"]
        before = counts(state)
        r = client.post(f"/threads/{tid}/runs", json=START)
        refused(r, 429, "more than 2 runs in a minute")
        assert 1 <= int(r.headers["retry-after"]) <= 61
        assert counts(state) == before


def test_too_many_active_runs_are_429(tmp_path):
    state = build(tmp_path, runs_per_minute=100, max_active_runs=2)
    with TestClient(create_app(state, mcp=False), base_url="http://127.0.0.1") as client:
        for _ in range(2):
            tid = client.post("/threads", json={}).json()["thread_id"]
            client.post(f"/threads/{tid}/runs", json=START)
        tid = client.post("/threads", json={}).json()["thread_id"]
        refused(
            client.post(f"/threads/{tid}/runs", json=START), 429, "2 runs of yours are in progress"
        )
        queue = state.queue
        assert isinstance(queue, HeldQueue)
        queue.run_all()
        assert client.post(f"/threads/{tid}/runs", json=START).status_code == 200


def test_cancel_a_pending_run_and_continue_later(tmp_path):
    state = build(tmp_path)
    with TestClient(create_app(state, mcp=False), base_url="http://127.0.0.1") as client:
        tid = client.post("/threads", json={}).json()["thread_id"]
        run = client.post(f"/threads/{tid}/runs", json=START).json()
        r = client.post(f"/threads/{tid}/runs/{run['run_id']}/cancel")
        assert r.status_code == 202
        got = client.get(f"/threads/{tid}/runs/{run['run_id']}").json()
        assert got["status"] == "interrupted"
        refused(client.delete("/threads/nope"), 404, "no thread")
        assert client.delete(f"/threads/{tid}").status_code == 204
        assert counts(state) == (0, 0, 0)
