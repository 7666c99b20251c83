"""A run's progress for output that is not a live terminal: plain lines, or JSON events."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any, TextIO

from codeproof.core.errors import WorkflowError
from codeproof.workflow.models import (
    ClarifyAnswer,
    ClarifyRequest,
    EscalationDecision,
    FailureReport,
    ModuleSelection,
    ModulesRequest,
    QuestionAnswer,
    QuestionRequest,
)
from codeproof.workflow.store import Event


def clock(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes:02d}:{rest:02d}"


_STEPS = {
    "intake": "reading the request",
    "analyze": "writing the specification",
    "modules": "choosing the modules",
    "plan": "starting",
    "design_tests": "designing tests and writing the first draft",
    "write_code": "writing the first draft",
    "execute": "running the tests in the sandbox",
    "draw": "drawing more drafts (the evidence is against the choice)",
    "repair": "repairing",
    "escalate": "asking what to do",
    "prove": "proving the tests (mutants in the sandbox)",
    "ask": "asking where the drafts disagree",
    "finish": "scanning and recording",
    "document": "writing the documentation",
    "assemble": "writing the project",
}


class Progress:
    """What a run is doing, as one line per step: ``[mm:ss] module: step``."""

    def __init__(self) -> None:
        self._started = time.monotonic()
        self._last = ""
        self._step: tuple[str, float] | None = None  # the step shown last, and its start

    def line(self, event: Event) -> str | None:
        """The progress line an event starts (``None`` when nothing new starts)."""
        if event.kind != "node_start":
            if event.kind == "node_end" and event.payload.get("node") == "execute":
                work = (event.payload.get("output") or {}).get("work") or {}
                report = work.get("report") or {}
                tests = f"{report.get('passed', 0)}/{report.get('total', 0)} tests pass"
                drafts = len(work.get("drafts") or [])
                verdict = work.get("verdict") or "not settled"
                return self._stamp(event, f"{tests}, {drafts} draft(s), {verdict}")
            return None
        node = str(event.payload.get("node"))
        text = _STEPS.get(node, node)
        line = self._stamp(event, text)
        if line == self._last:
            return None
        self._last = line
        module = event.payload.get("module")
        self._step = (f"{module}: {text}" if module else text, time.monotonic())
        return line

    def still(self) -> str | None:
        """The line that says the step shown last is still under way, and for how long
        (a step can take minutes: a model reply of 1,500 tokens on 2 cores)."""
        if self._step is None:
            return None
        step, since = self._step
        now = time.monotonic()
        return f"[{clock(now - self._started)}] {step}: still at it ({clock(now - since)})"

    def elapsed_s(self) -> float:
        return round(time.monotonic() - self._started, 1)

    def _stamp(self, event: Event, text: str) -> str:
        module = event.payload.get("module")
        where = f"{module}: " if module else ""
        return f"[{clock(time.monotonic() - self._started)}] {where}{text}"


class Heartbeat:
    """Calls ``beat`` every ``every_s`` seconds in which nothing else was shown, from a
    daemon timer that :meth:`shown` (re)arms and :meth:`close` stops."""

    def __init__(self, beat: Callable[[], None], every_s: float) -> None:
        self._beat = beat
        self.every_s = every_s
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()
        self._closed = False

    def shown(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            if self._closed:
                return
            self._timer = threading.Timer(self.every_s, self._fire)
            self._timer.daemon = True
            self._timer.start()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()

    def _fire(self) -> None:
        self._beat()  # the owner's write arms the next beat


HEARTBEAT_S = 60.0
"""How long piped output stays silent before it says the step is still under way."""


class ProgressLines:
    """A run's progress as plain lines (output that is not a terminal, e.g. ``make``)."""

    def __init__(self, out: IO[str] | None = None, every_s: float = HEARTBEAT_S) -> None:
        self.out = out or sys.stderr
        self.progress = Progress()
        self._lock = threading.Lock()
        self.heartbeat = Heartbeat(self._still, every_s)

    def on_event(self, event: Event) -> None:
        line = self.progress.line(event)
        if line is not None:
            self._write(line)

    def close(self) -> None:
        self.heartbeat.close()

    def _still(self) -> None:
        line = self.progress.still()
        if line is not None:
            self._write(line)

    def _write(self, line: str) -> None:
        with self._lock:
            self.out.write(line + "\n")
            self.out.flush()
        self.heartbeat.shown()


class JsonEvents:
    """``--json``: one JSON object per line on stdout for every event, and a
    ``progress`` line (step and elapsed time) whenever a step starts."""

    def __init__(self, out: TextIO | None = None, every_s: float = HEARTBEAT_S) -> None:
        self.out = out or sys.stdout
        self._lock = threading.Lock()
        self.progress = Progress()
        self.heartbeat = Heartbeat(self._still, every_s)

    def emit(self, record: dict[str, Any]) -> None:
        with self._lock:
            self.out.write(json.dumps(record, default=str) + "\n")
            self.out.flush()

    def close(self) -> None:
        self.heartbeat.close()

    def _still(self) -> None:
        line = self.progress.still()
        if line is not None:
            self.emit(
                {
                    "event": "progress",
                    "still": True,
                    "elapsed_s": self.progress.elapsed_s(),
                    "line": line,
                }
            )
            self.heartbeat.shown()

    def on_event(self, event: Event) -> None:
        self.emit({"event": event.kind, "seq": event.seq, "ts": event.ts, **event.payload})
        line = self.progress.line(event)
        if line is not None:
            self.emit(
                {
                    "event": "progress",
                    "module": event.payload.get("module"),
                    "step": event.payload.get("node"),
                    "elapsed_s": self.progress.elapsed_s(),
                    "line": line,
                }
            )
            self.heartbeat.shown()


class JsonHuman:
    """``--json`` without ``--yes``: questions as JSON lines, answers read as JSON lines.

    A question is ``{"event": "question", "kind": ..., "question": {...}}``; the answer
    is one line holding the JSON of ClarifyAnswer, ModuleSelection, EscalationDecision or
    QuestionAnswer.
    """

    def __init__(self, events: JsonEvents, stdin: TextIO | None = None) -> None:
        self.events = events
        self.stdin = stdin or sys.stdin

    def _ask(self, kind: str, question: dict[str, Any], model: type[Any]) -> Any:
        self.events.emit({"event": "question", "kind": kind, "question": question})
        while True:
            line = self.stdin.readline()
            if not line:
                raise WorkflowError(
                    f"no answer to the {kind} question on stdin",
                    hint="write each answer as one JSON line on stdin, or resume with "
                    "--yes to take every question's default",
                )
            try:
                return model.model_validate_json(line)
            except ValueError as exc:
                self.events.emit({"event": "invalid_answer", "kind": kind, "error": str(exc)})

    def clarify(self, request: ClarifyRequest) -> ClarifyAnswer:
        answer: ClarifyAnswer = self._ask("clarify", request.model_dump(mode="json"), ClarifyAnswer)
        return answer

    def select_modules(self, request: ModulesRequest) -> ModuleSelection:
        answer: ModuleSelection = self._ask(
            "modules", request.model_dump(mode="json"), ModuleSelection
        )
        return answer

    def escalate(self, report: FailureReport) -> EscalationDecision:
        answer: EscalationDecision = self._ask(
            "escalation", report.model_dump(mode="json"), EscalationDecision
        )
        return answer

    def answer(self, request: QuestionRequest) -> QuestionAnswer:
        answer: QuestionAnswer = self._ask(
            "question", request.model_dump(mode="json"), QuestionAnswer
        )
        return answer
