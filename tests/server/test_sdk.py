"""A whole run driven through the official ``langgraph-sdk`` client against a live
server: every kind of question answered with ``command={"resume": ...}``."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.errors import NotFoundError
from srv_world import ESCALATING, GOOD, engine, live_server, server_settings

from codeproof.server.state import ServerState

MODES = ["values", "updates", "custom"]


def interrupt_of(parts: list[Any]) -> dict[str, Any]:
    """The interrupt the last ``values`` event carries."""
    values = [p.data for p in parts if p.event == "values"]
    [pending] = values[-1]["__interrupt__"]
    return pending


def check_self_describing(pending: dict[str, Any], kind: str) -> dict[str, Any]:
    value = pending["value"]
    assert value["kind"] == kind
    assert value["question"].strip()
    assert "choices" in value and "default" in value
    assert pending["id"] and pending["response_schema"]["type"] == "object"
    return value


def drive(client: Any, toolchain_note: str) -> None:
    [assistant] = client.assistants.search(graph_id="codeproof")
    assert client.assistants.get("codeproof")["assistant_id"] == assistant["assistant_id"]
    thread = client.threads.create(metadata={"who": toolchain_note})
    tid = thread["thread_id"]
    assert thread["status"] == "idle" and thread["values"] is None

    # 1. start: the analyst asks a question (stream, every mode)
    parts = list(
        client.runs.stream(
            tid,
            "codeproof",
            input={"request": "a slugify function", "options": {"max_attempts": 2}},
            stream_mode=MODES,
        )
    )
    events = [p.event for p in parts]
    assert events[0] == "metadata" and events[-1] == "end"
    assert {"values", "updates", "custom"} <= set(events)
    ids = [int(p.id) for p in parts]
    assert ids == sorted(set(ids)), "event ids must grow without repeats"
    custom = [p.data for p in parts if p.event == "custom"]
    assert {"node_start", "llm_call"} <= {c["kind"] for c in custom}
    clarify = check_self_describing(interrupt_of(parts), "clarify")
    assert clarify["questions"][0] == "Keep unicode letters?"
    assert clarify["choices"] is None and clarify["default"] == {"answers": [], "proceed": True}

    state = client.threads.get(tid)
    assert state["status"] == "interrupted"
    [[listed]] = state["interrupts"].values()
    assert listed["value"]["kind"] == "clarify"
    assert client.threads.get_state(tid)["next"] == ["intake"]

    # 2. answer: the planner proposes modules (runs.wait)
    waited = client.runs.wait(tid, "codeproof", command={"resume": {"answers": ["ASCII only"]}})
    [modules_q] = waited["__interrupt__"]
    modules = check_self_describing(modules_q, "modules")
    assert modules["choices"] == ["slugify"]
    assert modules["default"]["modules"][0]["name"] == "slugify"

    # 3. accept the default: the module fails twice and escalates (create + join)
    run = client.runs.create(tid, "codeproof", command={"resume": modules["default"]})
    assert run["status"] in ("pending", "running")
    joined = client.runs.join(tid, run["run_id"])
    [escalation_q] = joined["__interrupt__"]
    escalation = check_self_describing(escalation_q, "escalation")
    assert escalation["choices"] == ["react", "continue", "stop"]
    assert escalation["default"] == {"action": "continue"}
    assert escalation["attempts"] == 2 and escalation["module"]["name"] == "slugify"

    # 4. react with a hint: the repair follows it, the run ends (stream, updates only)
    final = list(
        client.runs.stream(
            tid,
            "codeproof",
            command={"resume": {"action": "react", "hint": "use re.sub"}},
            stream_mode="updates",
        )
    )
    nodes = [next(iter(p.data)) for p in final if p.event == "updates"]
    assert nodes[-2:] == ["document", "assemble"]
    assert not any(p.event == "values" for p in final)

    done = client.threads.get(tid)
    assert done["status"] == "idle" and done["interrupts"] == {}
    assert done["values"]["project_dir"]
    runs = client.runs.list(tid)
    assert len(runs) == 4 and {r["status"] for r in runs} == {"success"}
    history = client.threads.get_history(tid, limit=100)
    assert len(history) > 10 and history[0]["next"] == []
    [found] = client.threads.search(metadata={"who": toolchain_note})
    assert found["thread_id"] == tid

    client.threads.delete(tid)
    with pytest.raises(NotFoundError):
        client.threads.get(tid)


def test_whole_run_through_the_sdk(tmp_path):
    state = ServerState.build(engine(server_settings(tmp_path / "home")))
    with live_server(state) as url, get_sync_client(url=url, api_key=None) as client:
        drive(client, "scripted")


@pytest.mark.docker
@pytest.mark.slow
def test_whole_run_through_the_sdk_on_the_real_toolchain(tmp_path, real_toolchains):
    """Same run, tests executed by the Python toolchain (MCP) in the Docker sandbox."""
    settings = server_settings(tmp_path / "home")
    state = ServerState.build(engine(settings, ESCALATING, real_toolchains))
    with live_server(state) as url, get_sync_client(url=url, api_key=None) as client:
        thread = client.threads.create()
        tid = thread["thread_id"]
        client.runs.wait(tid, "codeproof", input={"request": "a slugify function"})
        client.runs.wait(tid, "codeproof", command={"resume": {"proceed": True}})
        pending = client.threads.get(tid)["interrupts"]
        [[modules]] = pending.values()
        escalated = client.runs.wait(
            tid, "codeproof", command={"resume": modules["value"]["default"]}
        )
        [escalation] = escalated["__interrupt__"]
        assert escalation["value"]["kind"] == "escalation"
        assert escalation["value"]["failing"], "the sandbox reported failing tests"
        client.runs.wait(
            tid, "codeproof", command={"resume": {"action": "react", "hint": "use re.sub"}}
        )
        done = client.threads.get(tid)
        assert done["status"] == "idle"
        report = httpx.get(f"{url}/threads/{tid}/report").json()
        [module] = report["modules"]
        assert module["status"] == "passed" and module["tests_passed"] == module["tests_total"]
        archive = zipfile.ZipFile(io.BytesIO(httpx.get(f"{url}/threads/{tid}/project.zip").content))
        assert archive.read("slugify.py").decode() == GOOD
