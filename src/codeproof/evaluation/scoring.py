"""Score solutions against the hidden tests, in the sandbox, many tasks per session.

A :class:`Scorer` keeps one sandbox session per language open for a whole evaluation.
Each :meth:`Scorer.score` call writes one directory per solution and runs a small shell
driver inside the sandbox that executes every task with its own ``timeout`` (coreutils),
so 164 tasks cost one round trip instead of 164. Java solutions are compiled first by
one JVM that calls the system compiler once per task directory.
"""

from __future__ import annotations

import logging
import re
import secrets
import shlex
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel

from codeproof.core.errors import InputError, SandboxError
from codeproof.core.lifecycle import Lifecycle
from codeproof.evaluation.datasets import Language, Task
from codeproof.languages import registry
from codeproof.sandbox.base import Limits, SandboxSession

logger = logging.getLogger(__name__)

Status = Literal["passed", "failed", "timeout"]
SessionOpener = Callable[[str, Limits], AbstractContextManager[SandboxSession]]

#: ``timeout -k 1 T cmd`` exits 124 when TERM ended the command at the limit, 137 when
#: KILL was needed (137 before the limit is another SIGKILL, e.g. the OOM killer).
_TIMED_OUT, _KILLED = 124, 137
#: Largest file a task may write (``ulimit -f``, 512-byte blocks): its output included.
_FILE_BLOCKS = 2048
_OUTPUT_KEEP_BYTES = 1600


class Score(BaseModel):
    """Outcome of one solution against its hidden test."""

    task_id: str
    passed: bool
    status: Status
    exit_code: int
    duration_s: float
    output: str = ""


def _driver(command: str, dirs: Sequence[str], timeout_s: float, marker: str, log: str) -> str:
    """A POSIX shell script that runs ``command`` in each dir with its own time limit."""
    limit = f"{max(1, round(timeout_s))}"
    return "\n".join(
        [
            "#!/bin/sh",
            f": > {log}",
            f"for d in {' '.join(shlex.quote(d) for d in dirs)}; do",
            "  start=$(date +%s%N)",
            f'  (ulimit -f {_FILE_BLOCKS}; cd "$d" && exec timeout -k 1 {limit} sh -c '
            f"{shlex.quote(command)})"
            ' > "$d/out" 2>&1 < /dev/null',
            "  rc=$?",
            "  end=$(date +%s%N)",
            f'  printf \'\\n{marker} %s %s %s\\n\' "$d" "$rc" "$(( (end - start) / 1000000 ))"'
            f" >> {log}",
            f'  if [ "$(wc -c < "$d/out")" -gt {_OUTPUT_KEEP_BYTES} ]; then',
            f'    head -c {_OUTPUT_KEEP_BYTES // 2} "$d/out"; printf "\\n[...]\\n"',
            f'    tail -c {_OUTPUT_KEEP_BYTES // 2} "$d/out"',
            f'  else cat "$d/out"; fi >> {log}',
            '  rm -rf "$d"',
            "done",
            "",
        ]
    )


def _parse_log(text: str, marker: str) -> dict[str, tuple[int, float, str]]:
    """``dir -> (exit code, seconds, output tail)`` from the driver's log."""
    parts = re.split(rf"\n{marker} (\S+) (-?\d+) (\d+)\n", text)
    out: dict[str, tuple[int, float, str]] = {}
    for i in range(1, len(parts) - 3, 4):
        out[parts[i]] = (int(parts[i + 1]), int(parts[i + 2]) / 1000, parts[i + 3].strip())
    return out


def _status(rc: int, seconds: float, timeout_s: float) -> Status:
    if rc == 0:
        return "passed"
    if rc == _TIMED_OUT or (rc == _KILLED and seconds >= timeout_s):
        return "timeout"
    return "failed"


def _score_of(task: Task, entry: tuple[int, float, str] | None, timeout_s: float) -> Score:
    if entry is None:
        return Score(
            task_id=task.task_id,
            passed=False,
            status="failed",
            exit_code=-1,
            duration_s=0.0,
            output="the scoring driver did not report this task",
        )
    rc, seconds, tail = entry
    status = _status(rc, seconds, timeout_s)
    return Score(
        task_id=task.task_id,
        passed=rc == 0,
        status=status,
        exit_code=rc,
        duration_s=seconds,
        output=tail,
    )


@dataclass
class Scorer(Lifecycle):
    """Scores solutions in sandbox sessions kept open until :meth:`close`.

    Args:
        open_session: ``(sandbox language, limits) -> context manager of a session``,
            usually :func:`codeproof.sandbox.registry.open_session` bound to settings.
        timeout_s: Time limit of each task's test run.
        limits: Session limits; ``timeout_s`` of each driver run is set per batch.
    """

    open_session: SessionOpener
    timeout_s: float = 20.0
    limits: Limits = field(default_factory=Limits)
    _stack: ExitStack = field(default_factory=ExitStack, init=False, repr=False)
    _sessions: dict[str, SandboxSession] = field(default_factory=dict, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    _batches: int = field(default=0, init=False, repr=False)
    _closed: bool = field(default=False, init=False, repr=False)

    def close(self) -> None:
        """Close every session (idempotent); the scorer cannot be used afterwards."""
        with self._lock:
            self._closed = True
            self._sessions.clear()
            self._stack.close()

    def _session(self, image: str) -> SandboxSession:
        if self._closed:  # e.g. a task still running after Ctrl-C ended the evaluation
            raise SandboxError("the scorer is closed", backend="scorer")
        session = self._sessions.get(image)
        if session is None:
            session = self._stack.enter_context(self.open_session(image, self.limits))
            self._sessions[image] = session
        return session

    def score(self, items: Sequence[tuple[Task, str]]) -> list[Score]:
        """Score ``(task, solution source)`` pairs; results in the same order.

        Raises:
            SandboxError: The sandbox itself failed (not a solution's failure).
        """
        results: dict[int, Score] = {}
        by_language: dict[Language, list[int]] = {}
        for index, (task, _) in enumerate(items):
            by_language.setdefault(task.language, []).append(index)
        with self._lock:
            for language, indexes in by_language.items():
                batch = [items[i] for i in indexes]
                for i, score in zip(indexes, self._score_batch(language, batch), strict=True):
                    results[i] = score
        return [results[i] for i in range(len(items))]

    def _score_batch(self, language: str, items: Sequence[tuple[Task, str]]) -> list[Score]:
        benchmarks = registry.language_for(language).benchmarks
        if benchmarks is None:
            raise InputError(f"no benchmark scorer for {language!r} tasks")
        scorer = benchmarks.scorer
        session = self._session(scorer.sandbox_image)
        self._batches += 1
        tag = f"b{self._batches}{secrets.token_hex(3)}"
        dirs = [f"{tag}_{i}" for i in range(len(items))]
        files: dict[str, str] = {}
        for directory, (task, solution) in zip(dirs, items, strict=True):
            for name, content in scorer.files(task, solution).items():
                files[f"{directory}/{name}"] = content
        extra, prepare = scorer.prepare(dirs)
        marker, log = f"@@codeproof-{secrets.token_hex(8)}@@", f"{tag}.log"
        files.update(extra)
        files[f"{tag}.sh"] = _driver(scorer.command(), dirs, self.timeout_s, marker, log)
        session.put_files(files)
        if prepare is not None:
            self._run(session, prepare, 60.0 + 3.0 * len(items))
        self._run(session, ["sh", f"{tag}.sh"], 30.0 + (self.timeout_s + 2.0) * len(items))
        raw = session.read_file(log)
        parsed = _parse_log((raw or b"").decode("utf-8", "replace"), marker)
        return [
            _score_of(task, parsed.get(d), self.timeout_s)
            for d, (task, _) in zip(dirs, items, strict=True)
        ]

    @staticmethod
    def _run(session: SandboxSession, command: list[str], timeout_s: float) -> None:
        result = session.run(command, timeout_s=timeout_s)
        if result.exit_code != 0 or result.timed_out:
            raise SandboxError(
                f"scoring step {command[:2]} failed (exit {result.exit_code}, "
                f"timed out: {result.timed_out}): {(result.stderr or result.stdout)[-500:]}",
                backend=session.backend,
                hint="run `codeproof doctor` and `codeproof sandbox build`",
            )
