"""How the request benchmark gets a project: one model call, or ``codeproof new --yes``.

* ``one-call``: the request text as the user message of one model call, whose system
  prompt asks for every file of the project as ``File: <path>`` and a fenced block; the
  files are written to a project directory. No codeproof pipeline.
* ``pipeline``: exactly what a user runs, ``codeproof new REQUEST --yes --json --out DIR``,
  as a subprocess with a time limit; its JSON event lines give the model usage, its
  ``result`` line and ``codeproof-report.json`` give its own verdict.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, Any

from pydantic import BaseModel

from codeproof.agents.programmer import write_whole
from codeproof.evaluation.request_cases import RequestCase
from codeproof.languages.fences import clean_path
from codeproof.llm.base import ChatModel

logger = logging.getLogger(__name__)

REPORT_JSON = "codeproof-report.json"
"""The run report ``codeproof new`` writes into its project (workflow/assemble.py)."""
INTERRUPT_GRACE_S = 60.0
"""Seconds a timed-out ``codeproof new`` gets after Ctrl-C before it is killed."""
EXIT_DRAIN_S = 10.0
"""Seconds the event lines are still read after the process exited."""
MAX_FILE_BYTES = 1024 * 1024

NO_CACHE = {"CODEPROOF_LLM__CACHE": "false", "CODEPROOF_SANDBOX__CACHE": "false"}
"""The environment of a ``codeproof new`` run that answers nothing from a cache."""


class OwnModule(BaseModel):
    """One module as the pipeline reported it."""

    name: str
    status: str
    tests_passed: int = 0
    tests_total: int = 0


@dataclass
class Produced:
    """What a mode produced for one request (before scoring)."""

    files: dict[str, str] = field(default_factory=dict)
    wall_s: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_calls: int = 0
    cache_hits: int = 0
    status: str = "ok"
    """``ok``, ``timeout`` (pipeline over its limit) or ``error``."""
    error: str | None = None
    unnamed_blocks: int = 0
    """One call: code blocks without a path (they cannot be imported, so they are dropped)."""
    exit_code: int | None = None
    own_status: str | None = None
    """Pipeline: the run's own status (``done``, ``failed``...)."""
    own_modules: list[OwnModule] | None = None


# -- one call ---------------------------------------------------------------------------


def solve_one_call(model: ChatModel, case: RequestCase, *, max_tokens: int) -> Produced:
    """One greedy model call answering the request text, nothing hidden: the programmer's
    whole-request call (:func:`~codeproof.agents.programmer.write_whole`), which also
    writes the first draft of every module of ``codeproof new``; the files of its reply."""
    started = time.perf_counter()
    reply = write_whole(model, case.text, max_tokens=max_tokens)
    return Produced(
        files=reply.files, wall_s=time.perf_counter() - started, unnamed_blocks=reply.unnamed
    )


# -- project directories ----------------------------------------------------------------


def write_project(directory: Path, files: dict[str, str]) -> None:
    """Write ``files`` under ``directory`` (paths were cleaned by the reply parser)."""
    for path, content in files.items():
        target = directory / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")


def read_project(directory: Path) -> dict[str, str]:
    """The text files of a produced project, hidden files and large files left out."""
    files: dict[str, str] = {}
    if not directory.is_dir():
        return files
    for path in sorted(directory.rglob("*")):
        rel = PurePosixPath(path.relative_to(directory).as_posix())
        if not path.is_file() or any(part.startswith(".") for part in rel.parts):
            continue
        if path.stat().st_size > MAX_FILE_BYTES or clean_path(str(rel)) is None:
            continue
        try:
            files[str(rel)] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
    return files


def own_modules(project_dir: Path) -> list[OwnModule] | None:
    """The modules of the pipeline's own report, or None when it wrote none."""
    try:
        report = json.loads((project_dir / REPORT_JSON).read_text(encoding="utf-8"))
        return [
            OwnModule(
                name=m["name"],
                status=m["status"],
                tests_passed=int(m.get("tests_passed", 0)),
                tests_total=int(m.get("tests_total", 0)),
            )
            for m in report["modules"]
        ]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        logger.info("no readable %s in %s: %r", REPORT_JSON, project_dir, exc)
        return None


# -- codeproof new as a subprocess ------------------------------------------------------


@dataclass
class _EventTally:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    cache_hits: int = 0
    result: dict[str, Any] | None = None

    def add(self, line: str) -> None:
        try:
            event = json.loads(line)
        except ValueError:
            return
        if not isinstance(event, dict):
            return
        kind = event.get("event")
        if kind == "llm_call" and not event.get("replayed"):
            self.calls += 1
            self.cache_hits += 1 if event.get("cached") else 0
            self.prompt_tokens += int(event.get("prompt_tokens", 0))
            self.completion_tokens += int(event.get("completion_tokens", 0))
        elif kind == "result":
            self.result = event


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


@dataclass(frozen=True)
class PipelineLauncher:
    """Runs ``codeproof new REQUEST --yes --json --out DIR`` with a time limit.

    Args:
        timeout_s: Wall time a request may take; then the run gets Ctrl-C (it pauses and
            stops its toolchain servers) and, after :data:`INTERRUPT_GRACE_S`, is killed.
        provider: ``--provider`` passed on, if any.
        model: ``--model`` passed on, if any.
        no_cache: Run without the LLM response cache and the sandbox result cache.
        command: How to start codeproof (tests substitute a stand-in script).
    """

    timeout_s: float
    provider: str | None = None
    model: str | None = None
    no_cache: bool = False
    command: Sequence[str] = (sys.executable, "-m", "codeproof")

    def argv(self, case: RequestCase, project_dir: Path) -> list[str]:
        argv = [*self.command, "new", case.text, "--yes", "--json", "--out", str(project_dir)]
        if self.provider:
            argv += ["--provider", self.provider]
        if self.model:
            argv += ["--model", self.model]
        return argv

    def run(self, case: RequestCase, project_dir: Path, log_dir: Path) -> Produced:
        """Run the pipeline on ``case``; events go to ``log_dir/events.jsonl``, stderr to
        ``log_dir/stderr.log``."""
        log_dir.mkdir(parents=True, exist_ok=True)
        tally = _EventTally()
        started = time.perf_counter()
        with (
            (log_dir / "events.jsonl").open("w", encoding="utf-8") as events,
            (log_dir / "stderr.log").open("w", encoding="utf-8") as errors,
        ):
            proc = subprocess.Popen(
                [*_WITH_CTRL_C, *self.argv(case, project_dir)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=errors,
                text=True,
                encoding="utf-8",
                errors="replace",
                start_new_session=True,
                env={**os.environ, **NO_CACHE} if self.no_cache else None,
            )
            timed_out = self._follow(proc, tally, events, started)
        wall = time.perf_counter() - started
        modules = own_modules(project_dir)
        run = (tally.result or {}).get("run") or {}
        produced = Produced(
            files=read_project(project_dir),
            wall_s=wall,
            prompt_tokens=tally.prompt_tokens,
            completion_tokens=tally.completion_tokens,
            llm_calls=tally.calls,
            cache_hits=tally.cache_hits,
            exit_code=proc.returncode,
            own_status="timeout" if timed_out else run.get("status", "no result"),
            own_modules=modules,
        )
        if timed_out:
            produced.status = "timeout"
            produced.error = f"codeproof new took longer than {self.timeout_s:g} s"
        elif tally.result is None:
            produced.status = "error"
            produced.error = f"codeproof new exited with {proc.returncode} without a result"
            produced.error += _stderr_tail(log_dir / "stderr.log")
        return produced

    def _follow(
        self, proc: subprocess.Popen[str], tally: _EventTally, events: IO[str], started: float
    ) -> bool:
        """Record the event lines until the process ends; True if it had to be stopped.

        Over the time limit the run's process group (ours: started with a new session)
        gets Ctrl-C, so the run pauses and stops its toolchain servers; a group still
        alive :data:`INTERRUPT_GRACE_S` later is killed.
        """
        assert proc.stdout is not None
        lines: queue.Queue[str | None] = queue.Queue()
        reader = threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True)
        reader.start()
        deadline, exited = started + self.timeout_s, float("inf")
        interrupted_at: float | None = None
        killed = False
        while True:
            now = time.perf_counter()
            if interrupted_at is None and now >= deadline:
                _signal(proc, signal.SIGINT)
                interrupted_at = now
            if (
                interrupted_at is not None
                and not killed
                and now >= interrupted_at + INTERRUPT_GRACE_S
            ):
                _signal(proc, signal.SIGKILL)
                killed = True
            if proc.poll() is not None:
                exited = min(exited, now)
            try:
                line = lines.get(timeout=1.0)
            except queue.Empty:
                if now - exited > EXIT_DRAIN_S:  # a child kept the pipe open
                    break
                continue
            if line is None:
                break
            events.write(line)
            events.flush()
            tally.add(line)
        proc.wait()
        reader.join(timeout=1.0)
        proc.stdout.close()
        return interrupted_at is not None


_WITH_CTRL_C = (
    sys.executable,
    "-c",
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execvp(sys.argv[1], sys.argv[1:])",
)
"""Starts a command with Ctrl-C at its default: a harness started in the background
(``cmd &`` without job control) ignores SIGINT, its children inherit that, and a run
that ignores Ctrl-C cannot pause at its time limit; it is killed and loses its work."""


def _signal(proc: subprocess.Popen[str], signum: int) -> None:
    """Send ``signum`` to the process group of ``proc`` (which this module started)."""
    try:
        os.killpg(proc.pid, signum)
    except ProcessLookupError:
        logger.debug("process group %d already gone", proc.pid)


def _stderr_tail(path: Path, limit: int = 300) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""
    return f": {text[-limit:]}" if text else ""
