"""Run store, recording model (audit + replay) and pure workflow logic (no sandbox)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from codeproof.core.errors import InputError
from codeproof.core.types import Clarification, TestCase, TestReport
from codeproof.llm.base import ChatSettings, Message
from codeproof.llm.fake import FakeModel
from codeproof.workflow.logic import code_hash, failing_tests, likely_cause, usage_of
from codeproof.workflow.models import AttemptRecord, ClarifyAnswer
from codeproof.workflow.recording import RecordingModel
from codeproof.workflow.store import RunStore

HI = [Message(role="user", content="hi")]


@pytest.fixture
def store(tmp_path: Path):
    with RunStore(tmp_path / "runs") as s:
        s.create_run("r1", "req", str(tmp_path / "out"), {"auto": True})
        yield s


def test_runs_index_and_prefix_lookup(store: RunStore) -> None:
    store.create_run("r2-abc", "other", "out", {})
    assert store.get_run("r2").id == "r2-abc"
    assert store.get_run("r1").options == {"auto": True}
    store.set_status("r1", "paused", "provider down")
    run = store.get_run("r1")
    assert (run.status, run.reason) == ("paused", "provider down")
    assert [r.id for r in store.list_runs()] == ["r2-abc", "r1"]
    with pytest.raises(InputError, match="ambiguous"):
        store.get_run("r")
    with pytest.raises(InputError, match="no run"):
        store.get_run("zzz")


def test_events_are_ordered_and_numbered_across_threads(store: RunStore) -> None:
    seen = []
    store.subscribe(seen.append)

    def add(n: int) -> None:
        for i in range(20):
            store.add_event("r1", "tool_call", {"thread": n, "i": i})

    threads = [threading.Thread(target=add, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    events = store.events("r1")
    assert [e.seq for e in events] == list(range(1, 81))
    assert len(seen) == 80
    assert store.events("r1", "decision") == []


def test_a_killed_run_is_orphaned(store: RunStore) -> None:
    assert not store.get_run("r1").orphaned  # this process is alive
    store.conn.execute("UPDATE runs SET pid = 2147483646 WHERE id = 'r1'")
    assert store.get_run("r1").orphaned


def test_recording_model_replays_completed_calls(store: RunStore) -> None:
    fake = FakeModel(["one", "two", {"reply": "ok", "ready": True}])
    first = RecordingModel(fake, store, "r1", "intake::r0")
    assert first.chat(HI).text == "one"
    assert first.chat(HI).text == "two"  # same prompt again: a new call (occurrence 1)
    result = first.generate(HI, Clarification)
    assert result.ready

    again = RecordingModel(fake, store, "r1", "intake::r0")  # the node runs again
    assert again.chat(HI).text == "one"
    assert again.chat(HI).text == "two"
    assert again.generate(HI, Clarification) == result
    assert len(fake.calls) == 3  # nothing paid twice

    other = RecordingModel(FakeModel(["three"]), store, "r1", "intake::r1")
    assert other.chat(HI, ChatSettings(max_tokens=5)).text == "three"

    calls = [e.payload for e in store.events("r1", "llm_call")]
    assert [c["replayed"] for c in calls] == [False, False, False, True, True, True, False]
    paid = [c for c in calls if not c["replayed"]]
    assert all(c["completion_tokens"] > 0 and c["prompt"] for c in paid)
    usage = usage_of(store.events("r1"))
    assert usage.calls == 4
    assert usage_of(store.events("r1"), module="nope").calls == 0


def test_recording_stream_is_recorded_and_replayed(store: RunStore) -> None:
    fake = FakeModel(["a streamed reply"])
    assert "".join(RecordingModel(fake, store, "r1", "code:m:r0").stream(HI)) == (
        "a streamed reply"
    )
    again = RecordingModel(fake, store, "r1", "code:m:r0")
    assert "".join(again.stream(HI)) == "a streamed reply"
    assert len(fake.calls) == 1
    [paid, replayed] = [e.payload for e in store.events("r1", "llm_call")]
    assert paid["completion_tokens"] == 3 and replayed["replayed"]


def test_decisions_are_found_by_interrupt_id(store: RunStore) -> None:
    store.add_event("r1", "decision", {"interrupt_id": "i1", "kind": "clarify", "value": {"a": 1}})
    assert store.decision_for("r1", "i1") == {"a": 1}
    assert store.decision_for("r1", "i2") is None


def test_clarify_answer_needs_an_answer_or_proceed() -> None:
    with pytest.raises(ValueError):
        ClarifyAnswer(answers=["  "])
    assert ClarifyAnswer(proceed=True).proceed


def _report(**fields: object) -> TestReport:
    return TestReport.model_validate(fields)


def test_likely_cause_and_failing_tests() -> None:
    history = [
        AttemptRecord(attempt=1, change="initial code", passed=1, total=3, code_hash="a"),
        AttemptRecord(attempt=2, change="fix", passed=1, total=3, code_hash="b"),
    ]
    red = _report(
        total=3,
        passed=1,
        failed=2,
        tests=[
            TestCase(name="t1", outcome="passed"),
            TestCase(name="t2", outcome="failed", message="assert 1 == 2"),
        ],
    )
    assert failing_tests(red) == [{"name": "t2", "message": "assert 1 == 2"}]
    assert "identical code" in likely_cause(red, history, stuck=True)
    assert "contradict" in likely_cause(red, history, stuck=False)
    assert "time out" in likely_cause(_report(timed_out=True), history, stuck=False)
    broken = _report(output="ModuleNotFoundError: No module named 'slugify'")
    assert "cannot load the code" in likely_cause(broken, history[:1], stuck=False)
    assert failing_tests(broken)[0]["name"] == "(test run)"
    assert "no tests" in likely_cause(_report(), [], stuck=False, has_tests=False)


def test_code_hash_is_order_independent() -> None:
    assert code_hash({"a.py": "1", "b.py": "2"}) == code_hash({"b.py": "2", "a.py": "1"})
    assert code_hash({"a.py": "1"}) != code_hash({"a.py": "2"})
