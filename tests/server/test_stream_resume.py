"""SSE streams: ids, Last-Event-ID replay after a dropped connection, stream modes, the
event log across attempts."""

from __future__ import annotations

import json
from typing import Any

import httpx
from srv_world import World, engine, live_server, server_settings

from codeproof.server.state import ServerState
from codeproof.server.threads import Limits

START = {"assistant_id": "codeproof", "input": {"request": "a slugify function"}}


def parse(lines: list[str]) -> list[dict[str, Any]]:
    """SSE lines -> events {id, event, data} (comments skipped)."""
    events, current = [], {}
    for line in lines:
        if not line:
            if current:
                events.append(current)
            current = {}
        elif line.startswith(":"):
            continue
        else:
            key, _, value = line.partition(": ")
            current[key] = json.loads(value) if key == "data" else value
    return events


def read_until(response: httpx.Response, stop_after: int | None) -> list[dict[str, Any]]:
    """Read a stream; with ``stop_after``, drop the connection after that many events."""
    lines: list[str] = []
    count = 0
    for line in response.iter_lines():
        lines.append(line)
        if line == "":
            count += 1
            if stop_after is not None and count >= stop_after:
                break
    return parse([*lines, ""])


def test_a_dropped_stream_resumes_from_last_event_id_without_loss_or_repeat(tmp_path):
    state = ServerState.build(engine(server_settings(tmp_path / "home"), World()))
    with live_server(state) as url, httpx.Client(base_url=url, timeout=60) as http:
        tid = http.post("/threads", json={}).json()["thread_id"]
        body = {**START, "input": {"request": "a slugify function", "options": {"yes": True}}}
        with http.stream(
            "POST",
            f"/threads/{tid}/runs/stream",
            json={**body, "stream_mode": ["updates", "custom"]},
        ) as first:
            location = first.headers["location"]
            head = read_until(first, stop_after=5)
        assert head[0]["event"] == "metadata"
        pieces = [head]
        while pieces[-1][-1]["event"] not in ("end", "error"):
            last = pieces[-1][-1]["id"]
            with http.stream("GET", location, headers={"Last-Event-ID": last}) as again:
                pieces.append(read_until(again, stop_after=7))
        joined = [e for piece in pieces for e in piece]
        ids = [int(e["id"]) for e in joined]
        assert len(ids) == len(set(ids)), "an event was sent twice"
        run_id = location.split("/")[-2]
        stored = state.events.read(run_id, 0, limit=100_000)
        wanted = [e.seq for e in stored if e.event in ("metadata", "updates", "custom", "end")]
        assert ids == wanted, "an event was lost"
        assert joined[-1]["event"] == "end" and joined[-1]["data"]["status"] == "success"
        assert len(pieces) > 3


def test_join_stream_replays_everything_and_filters_modes(tmp_path):
    state = ServerState.build(engine(server_settings(tmp_path / "home"), World()))
    with live_server(state) as url, httpx.Client(base_url=url, timeout=60) as http:
        tid = http.post("/threads", json={}).json()["thread_id"]
        body = {**START, "input": {"request": "a slugify function", "options": {"yes": True}}}
        run = http.post(
            f"/threads/{tid}/runs", json={**body, "stream_mode": ["values", "updates"]}
        ).json()
        http.get(f"/threads/{tid}/runs/{run['run_id']}/join")
        path = f"/threads/{tid}/runs/{run['run_id']}/stream"
        with http.stream("GET", path, params={"stream_mode": "updates"}) as replay:
            events = read_until(replay, None)
        kinds = {e["event"] for e in events}
        assert kinds == {"metadata", "updates", "end"}
        nodes = [next(iter(e["data"])) for e in events if e["event"] == "updates"]
        assert nodes[0] == "intake" and nodes[-1] == "assemble"


def test_a_starting_server_runs_again_what_a_dead_process_left(tmp_path):
    """A run left 'running' by a process that is gone runs again at the next start; its
    stream goes on with the next ids (a second metadata event, attempt 2)."""
    settings = server_settings(tmp_path / "home")
    first = ServerState.build(engine(settings, World()))
    first.db.open()
    thread = first.threads.create_thread("local")
    payload = first.service._start_payload(
        thread.id, {"request": "a slugify function", "options": {"yes": True}}
    )
    limits = Limits(runs_per_minute=9, max_active_runs=9)
    run = first.threads.add_run("local", thread.id, {**payload, "stream_mode": ["updates"]}, limits)
    first.threads.begin_attempt(run.id)
    first.events.append(run.id, "metadata", {"run_id": run.id, "attempt": 1})
    with first.db.tx() as conn:  # the process that had it died
        conn.execute("UPDATE api_runs SET pid = ? WHERE id = ?", (2**22 + 12345, run.id))
    first.db.close()

    second = ServerState.build(engine(settings, World()))
    with live_server(second) as url, httpx.Client(base_url=url, timeout=60) as http:
        http.get(f"/threads/{thread.id}/runs/{run.id}/join")
        events = second.events.read(run.id, 0, limit=100_000)
    assert [e.data["attempt"] for e in events if e.event == "metadata"] == [1, 2]
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert events[-1].event == "end"
    assert second.threads.run(run.id).status == "success"
