"""Durability: kill -9 mid-module, provider down mid-run, and the audit trail."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from wf_world import BAD_1, BROKEN, BROKEN_2, GOOD, SPEC, ScriptedHuman, World

from codeproof.core.errors import ProviderUnreachableError, SandboxUnavailableError, WorkflowError
from codeproof.llm.base import Message
from codeproof.llm.fake import FakeModel
from codeproof.workflow.deps import RunOptions, ToolchainLike
from codeproof.workflow.models import ClarifyAnswer, EscalationDecision
from codeproof.workflow.runner import Runner
from codeproof.workflow.store import RunStore

pytestmark = pytest.mark.docker

SCRIPT = Path(__file__).with_name("wf_script.py")


def _wait_for_execute(store: RunStore, run_id: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ends = (
            [e for e in store.events(run_id, "node_end") if e.payload.get("node") == "execute"]
            if _has_run(store, run_id)
            else []
        )
        if ends:
            return
        assert proc.poll() is None, "the run ended before it could be killed"
        time.sleep(0.05)
    raise AssertionError("no execute node finished within 120 s")


def _has_run(store: RunStore, run_id: str) -> bool:
    return any(r.id == run_id for r in store.list_runs())


@pytest.mark.slow
def test_resume_after_kill_9_mid_module(tmp_path, real_toolchains):
    runs = tmp_path / "runs"
    runs.mkdir()
    run_id = "kill-test"
    with (tmp_path / "start.log").open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, str(SCRIPT), "start", str(runs), str(tmp_path / "out"), run_id],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        with RunStore(runs) as store:
            _wait_for_execute(store, run_id, proc)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        if _group_alive(proc.pid):  # the toolchain server it started
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL

    with RunStore(runs) as store:
        assert store.get_run(run_id).status == "running"  # killed: nothing marked it
        before = len(store.events(run_id, "llm_call"))
    resumed = subprocess.run(
        [sys.executable, str(SCRIPT), "resume", str(runs), run_id],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert resumed.stdout.startswith("done")

    with RunStore(runs) as store:
        calls = store.events(run_id, "llm_call")
        paid = Counter(c.payload["call_id"] for c in calls if not c.payload["replayed"])
        decisions = [d.payload["kind"] for d in store.events(run_id, "decision")]
        finish = [e for e in store.events(run_id, "node_end") if e.payload["node"] == "finish"]
    assert len(calls) > before
    assert paid and max(paid.values()) == 1, "a completed LLM call was paid twice"
    assert decisions == ["clarify", "modules"]
    asked = (runs / "asked.txt").read_text().split()
    assert asked == ["clarify", "modules"], "a human decision was asked twice"
    [outcome] = finish[-1].payload["output"]["outcomes"]
    assert outcome["status"] == "passed" and outcome["attempts"] == 4
    assert (tmp_path / "out" / "slugify.py").read_text() == GOOD


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def test_provider_down_pauses_then_resume_pays_nothing_twice(
    wf_settings, store, real_toolchains, tmp_path
):
    world = World(code={"slugify": BROKEN}, repairs={"slugify": [GOOD]})
    down = {"on": True}

    def flaky_repair(messages: list[Message]) -> str:
        if down["on"]:
            raise ProviderUnreachableError("connection refused", provider="fake")
        return world.repair(messages)

    broken = FakeModel(
        rules=[(lambda m: m[0].content.startswith("You fix"), flaky_repair), *world.rules()]
    )
    options = RunOptions(out_dir=str(tmp_path / "out"), auto=True)
    runner = Runner(wf_settings, store, broken, real_toolchains, ScriptedHuman())

    with pytest.raises(WorkflowError) as caught:
        runner.start("a slugify function", options, run_id="flaky")
    message = caught.value.message
    assert message.startswith("run flaky paused: [fake] connection refused")
    assert message.endswith("fix it, then `codeproof resume flaky`")
    assert store.get_run("flaky").status == "paused"
    assert store.events("flaky", "error")[-1].payload["error"] == "ProviderUnreachableError"
    first_prompts = [(c.messages, c.settings) for c in broken.calls]

    down["on"] = False
    calls_before = len(broken.calls)
    result = runner.resume("flaky")

    assert result.status == "done"
    # a request is its messages and settings: the proof's sampled drafts ask the first
    # draft's words again, with another seed (a new sample, not a call paid twice)
    new_prompts = [(c.messages, c.settings) for c in broken.calls[calls_before:]]
    completed_before = first_prompts[:-1]  # the last one is the failed repair call
    assert not any(p in completed_before for p in new_prompts)
    assert store.get_run("flaky").status == "done"


def test_audit_trail_is_complete(run_workflow, store):
    world = World(
        questions=[["Unicode?"]], code={"slugify": BROKEN}, repairs={"slugify": [BROKEN_2]}
    )
    human = ScriptedHuman(
        clarify_answers=[ClarifyAnswer(answers=["ASCII"])],
        escalations=[
            EscalationDecision(action="react", hint="regex"),
            EscalationDecision(action="continue"),
        ],
    )
    world.hinted = {"slugify": ("regex", BAD_1)}
    model = world.model()
    result = run_workflow(model, human, max_attempts=2, candidates=1, on_failure="ask")
    events = store.events(result.run_id)
    kinds = Counter(e.kind for e in events)

    # every LLM call: prompt, reply, tokens, latency, cached
    calls = [e.payload for e in events if e.kind == "llm_call"]
    paid = [c for c in calls if not c["replayed"]]
    assert len(paid) == len(model.calls)
    for call in paid:
        assert call["prompt"] and call["reply"] and call["completion_tokens"] > 0
        assert {"prompt_tokens", "latency_s", "cached", "scope", "call_id"} <= call.keys()
    assert any(c["replayed"] and c["scope"].startswith("intake") for c in calls)
    # every node's inputs and outputs
    starts = [e.payload for e in events if e.kind == "node_start"]
    ends = [e.payload for e in events if e.kind == "node_end"]
    assert all("input" in s for s in starts) and all("output" in e for e in ends)
    assert {e["node"] for e in ends} >= {
        "intake",
        "analyze",
        "modules",
        "plan",
        "design_tests",
        "write_code",
        "execute",
        "repair",
        "escalate",
        "finish",
        "document",
        "assemble",
    }
    # every tool call and every decision
    executes = [e for e in ends if e["node"] == "execute"]
    tools: list[tuple[str, str]] = []  # (the node that made it, the tool)
    node = ""
    for e in events:
        if e.kind == "node_start":
            node = e.payload["node"]
        elif e.kind == "tool_call":
            tools.append((node, e.payload["tool"]))
    assert [t for n, t in tools if n == "execute"] == ["run_tests"] * len(executes)
    assert {n for n, _ in tools} <= {"execute", "prove"}  # the proof's runs: its own node
    decisions = [e.payload for e in events if e.kind == "decision"]
    assert [d["kind"] for d in decisions] == ["clarify", "modules", "escalation", "escalation"]
    assert decisions[2]["value"] == {"action": "react", "hint": "regex"}
    assert kinds["error"] == 0


def test_invalid_model_output_pauses_and_resume_completes(
    wf_settings, store, real_toolchains, tmp_path
):
    world = World()
    broken = {"on": True}

    def spec_reply(messages: list[Message]) -> str:
        return "this is not JSON" if broken["on"] else SPEC.model_dump_json()

    model = FakeModel(
        rules=[
            (lambda m: m[0].content.startswith("You turn a programming"), spec_reply),
            *world.rules(),
        ]
    )
    options = RunOptions(out_dir=str(tmp_path / "out"), auto=True)
    runner = Runner(wf_settings, store, model, real_toolchains, ScriptedHuman())

    with pytest.raises(WorkflowError, match=r"paused: .*model's spec reply was not valid twice"):
        runner.start("a slugify function", options, run_id="garbled")
    assert store.get_run("garbled").status == "paused"
    assert store.events("garbled", "error")[-1].payload["error"] == "StructuredOutputError"
    failed = [e.payload for e in store.events("garbled", "llm_call") if "error" in e.payload]
    assert failed and failed[-1]["reply"] == "this is not JSON"  # paid for, so recorded
    assert "was not valid twice" in failed[-1]["error"]

    broken["on"] = False
    assert runner.resume("garbled").status == "done"


def test_sandbox_unavailable_pauses_and_resume_completes(
    wf_settings, store, real_toolchains, tmp_path
):
    world = World()

    def no_sandbox(language: str) -> ToolchainLike:
        raise SandboxUnavailableError("Docker daemon not reachable", backend="docker")

    options = RunOptions(out_dir=str(tmp_path / "out"), auto=True)
    runner = Runner(wf_settings, store, world.model(), no_sandbox, ScriptedHuman())
    with pytest.raises(WorkflowError, match=r"paused: .*Docker daemon not reachable"):
        runner.start("a slugify function", options, run_id="nosandbox")
    assert store.get_run("nosandbox").status == "paused"
    paid_before = len([e for e in store.events("nosandbox", "llm_call")])

    runner.toolchains = real_toolchains
    assert runner.resume("nosandbox").status == "done"
    calls = store.events("nosandbox", "llm_call")
    paid = Counter(c.payload["call_id"] for c in calls if not c.payload["replayed"])
    assert len(calls) > paid_before and max(paid.values()) == 1, "a completed call paid twice"
