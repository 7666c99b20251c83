"""The terminal side: module editing commands, the live display, JSON questions."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable

import pytest
from rich.console import Console
from wf_world import EXTRA, SLUGIFY, SPEC

from codeproof.commands.display import LiveDisplay, _apply_module_command
from codeproof.commands.progress import JsonEvents, JsonHuman, ProgressLines
from codeproof.core.errors import WorkflowError
from codeproof.workflow.models import ClarifyRequest, ModulesRequest
from codeproof.workflow.store import Event

DEPENDENT = EXTRA.model_copy(update={"depends_on": ["slugify"]})


def test_drop_rename_and_edit_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    console = Console(file=io.StringIO())
    modules = [SLUGIFY, DEPENDENT]
    assert _apply_module_command(console, SPEC, modules, ["drop", "2"]) == [SLUGIFY]
    renamed = _apply_module_command(console, SPEC, modules, ["rename", "1", "slug"])
    assert [m.name for m in renamed] == ["slug", "extra"]
    assert renamed[1].depends_on == ["slug"]  # dependants follow the rename
    answers = iter(["Better purpose.", "slugify(text)", ""])
    monkeypatch.setattr("rich.prompt.Prompt.ask", lambda *a, **k: next(answers))
    edited = _apply_module_command(console, SPEC, modules, ["edit", "2"])
    assert edited[1].purpose == "Better purpose." and edited[1].depends_on == []
    with pytest.raises(IndexError):
        _apply_module_command(console, SPEC, modules, ["drop", "3"])
    with pytest.raises(ValueError):
        _apply_module_command(console, SPEC, modules, ["explode", "1"])


def _event(seq: int, kind: str, **payload: object) -> Event:
    return Event.model_validate(
        {"run_id": "r", "seq": seq, "ts": 0.0, "kind": kind, "payload": payload}
    )


def test_live_display_tracks_modules_attempts_tests_and_tokens() -> None:
    out = io.StringIO()
    display = LiveDisplay(Console(file=out, width=120), max_attempts=5)
    with display:
        display.on_event(
            _event(
                1,
                "node_end",
                node="modules",
                output={"checklist": [SLUGIFY.model_dump(), EXTRA.model_dump()]},
            )
        )
        display.on_event(_event(2, "node_start", node="execute", module="slugify", attempt=1))
        display.on_event(_event(3, "llm_call", completion_tokens=40, latency_s=2.0))
        # a cache hit (a cached rerun showed 417,435.9 tok/s): its tokens count, not its speed
        display.on_event(
            _event(3, "llm_call", completion_tokens=3000, latency_s=0.001, cached=True)
        )
        display.on_event(
            _event(
                4,
                "node_end",
                node="execute",
                output={
                    "work": {"attempt": 2, "attempts_total": 2, "report": {"passed": 3, "total": 4}}
                },
            )
        )
        display.on_event(
            _event(
                5,
                "node_end",
                node="finish",
                output={"outcomes": [{"module": SLUGIFY.model_dump(), "status": "passed"}]},
            )
        )
    text = out.getvalue()
    assert "slugify" in text and "passed" in text and "3/4" in text
    assert "extra" in text and "pending" in text
    assert "attempt 2/5" in text and "20.0 tok/s" in text and "3040 tokens" in text


def test_json_human_reads_answers_and_skips_invalid_lines() -> None:
    out = io.StringIO()
    answers = io.StringIO('{"nonsense": 1}\n{"proceed": true}\n')
    human = JsonHuman(JsonEvents(out), answers)
    request = ClarifyRequest(round=1, max_rounds=3, reply="hi", questions=["Q?"], assumptions=[])
    assert human.clarify(request).proceed
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["event"] for line in lines] == ["question", "invalid_answer"]
    assert lines[0]["question"]["questions"] == ["Q?"]
    with pytest.raises(WorkflowError, match="no answer"):
        human.select_modules(ModulesRequest(spec=SPEC, modules=[SLUGIFY]))


def test_progress_lines_name_each_step_with_its_module_and_elapsed_time() -> None:
    out = io.StringIO()
    lines = ProgressLines(out)
    for seq, (kind, payload) in enumerate(
        [
            ("node_start", {"node": "analyze"}),
            ("node_start", {"node": "design_tests", "module": "slugify"}),
            ("llm_call", {"scope": "tests:slugify:r0"}),
            ("node_start", {"node": "write_code", "module": "slugify"}),
            (
                "node_end",
                {
                    "node": "execute",
                    "module": "slugify",
                    "output": {"work": {"report": {"passed": 3, "total": 4}, "drafts": [{}]}},
                },
            ),
            ("node_start", {"node": "draw", "module": "slugify"}),
        ]
    ):
        lines.on_event(Event(run_id="r", seq=seq, ts=0.0, kind=kind, payload=payload))
    shown = out.getvalue().splitlines()
    assert shown == [
        "[00:00] writing the specification",
        "[00:00] slugify: designing tests and writing the first draft",
        "[00:00] slugify: writing the first draft",
        "[00:00] slugify: 3/4 tests pass, 1 draft(s), not settled",
        "[00:00] slugify: drawing more drafts (the evidence is against the choice)",
    ]


def _wait_for(condition: Callable[[], bool], timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def test_a_long_step_is_said_to_be_still_under_way_until_the_run_ends() -> None:
    # js-slugify on 2 cores: the test design took 14 minutes, and piped output (make demo,
    # CI) printed nothing in between
    out = io.StringIO()
    lines = ProgressLines(out, every_s=0.05)
    lines.on_event(Event(run_id="r", seq=0, ts=0.0, kind="llm_call", payload={"scope": "x"}))
    time.sleep(0.2)
    assert out.getvalue() == ""  # no step shown yet: nothing to say it is still under way
    start = {"node": "design_tests", "module": "slugify"}
    lines.on_event(Event(run_id="r", seq=1, ts=0.0, kind="node_start", payload=start))
    assert _wait_for(lambda: len(out.getvalue().splitlines()) >= 3)
    first, *still = out.getvalue().splitlines()
    assert first == "[00:00] slugify: designing tests and writing the first draft"
    assert still[0].endswith(
        "slugify: designing tests and writing the first draft: still at it (00:00)"
    )
    lines.close()
    shown = out.getvalue()
    time.sleep(0.3)
    assert out.getvalue() == shown


def test_json_output_says_a_step_is_still_under_way() -> None:
    out = io.StringIO()
    events = JsonEvents(out, every_s=0.05)
    events.on_event(
        Event(run_id="r", seq=0, ts=0.0, kind="node_start", payload={"node": "analyze"})
    )
    assert _wait_for(lambda: '"still": true' in out.getvalue())
    events.close()
    still = next(json.loads(x) for x in out.getvalue().splitlines() if '"still"' in x)
    assert (
        still["event"] == "progress" and "writing the specification: still at it" in still["line"]
    )
