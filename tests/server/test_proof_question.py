"""The proof's question on the server: the drafts' disagreement shown on the web page as a
form (its results, how many drafts gave each, the chosen code's), answered with a typed
value; the run's progress and report show the proof (scripted model; the in-memory
toolchain runs the scripted Python only)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from srv_world import engine
from test_web import csrf_of
from wf_world import disagreeing

from codeproof.core.config import load_settings
from codeproof.server.app import create_app
from codeproof.server.progress import progress
from codeproof.server.state import ServerState
from codeproof.workflow.deps import ToolchainLike
from inproc import memory_python_toolchain


def _toolchains(language: str) -> ToolchainLike:
    assert language == "python"
    return memory_python_toolchain()


def _wait(client: TestClient, tid: str, status: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120  # the proof runs mutants: slower on a loaded machine
    while time.monotonic() < deadline:
        got: dict[str, Any] = client.get(f"/threads/{tid}").json()
        if got["status"] == status:
            return got
        time.sleep(0.05)
    raise AssertionError(f"thread {tid} did not reach {status}: {got}")


def test_the_drafts_disagreement_is_a_form_and_its_answer_an_example(tmp_path: Path):
    settings = load_settings(
        home=tmp_path / "home",
        workflow={"max_clarify_rounds": 0},
        server={"port": 0},
        llm={"cache": False},
    )
    state = ServerState.build(engine(settings, disagreeing(), _toolchains))
    with TestClient(create_app(state, mcp=False), base_url="http://127.0.0.1") as client:
        token = csrf_of(client.get("/").text)
        made = client.post(
            "/ui/runs",
            data={"request": "a slugify function", "csrf_token": token, "lang": "python"},
            follow_redirects=False,
        )
        tid = made.headers["location"].rsplit("/", 1)[1]
        answer = f"/ui/threads/{tid}/answer"
        _wait(client, tid, "interrupted")
        assert 'data-kind="modules"' in client.get(f"/ui/threads/{tid}").text
        client.post(answer, data={"csrf_token": token, "keep": "0", "name_0": "slugify"})

        waiting = _wait(client, tid, "interrupted")
        [[question]] = waiting["interrupts"].values()
        value = question["value"]
        assert value["kind"] == "question" and value["call"] == "slugify('a - b')"
        assert value["choices"] == ["'a-b'", "'a---b'"]
        assert value["default"] == {"value": "'a-b'"}
        page = client.get(f"/ui/threads/{tid}").text
        assert 'data-kind="question"' in page and "The drafts disagree" in page
        assert "(the chosen code)" in page and 'name="typed"' in page

        empty = client.post(answer, data={"csrf_token": token, "typed": "", "value": ""})
        assert empty.status_code == 422 and "value" in empty.text
        client.post(answer, data={"csrf_token": token, "value": "'a---b'", "typed": "'a-b'"})
        _wait(client, tid, "idle")

        page = client.get(f"/ui/threads/{tid}").text
        assert "Project ready" in page
        report = client.get(f"/ui/threads/{tid}/report").text
        assert "Proof of slugify" in report and "answered <code>&#39;a-b&#39;</code>" in report
        with state.service.runner() as runner:
            events = runner.store.events(tid)
    proved = [progress(e) for e in events if e.kind == "node_end" and e.payload["node"] == "prove"]
    assert proved and proved[-1]["strength"] in ("strong", "moderate", "weak", "unmeasured")
    assert "mutation_score" in proved[-1]  # what the stream shows of each proof
