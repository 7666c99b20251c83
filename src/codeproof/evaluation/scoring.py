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
from typing import Literal, Protocol

from pydantic import BaseModel

from codeproof.core.errors import SandboxError
from codeproof.core.lifecycle import Lifecycle
from codeproof.evaluation.datasets import Language, Task
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

JS_THROWING_ASSERT = """
// codeproof: console.assert only prints in Node.js; make a failed assertion fail the run.
console.assert = (condition, ...data) => {
  if (!condition) {
    throw new Error("Assertion failed" + (data.length ? ": " + data.join(" ") : ""));
  }
};
"""

JAVA_BATCH_COMPILER = """
import java.io.*;
import java.nio.file.*;
import javax.tools.*;

/** codeproof: compile <dir>/Main.java for every directory argument in one JVM. */
public class BatchCompile {
    public static void main(String[] args) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        for (String dir : args) {
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            int rc = javac.run(null, log, log, "-nowarn", "-encoding", "UTF-8", "-d", dir,
                    dir + "/Main.java");
            if (rc != 0) {
                Files.write(Paths.get(dir, "compile.err"), log.toByteArray());
            }
        }
    }
}
"""


class Score(BaseModel):
    """Outcome of one solution against its hidden test."""

    task_id: str
    passed: bool
    status: Status
    exit_code: int
    duration_s: float
    output: str = ""


class LanguageScorer(Protocol):
    """How one language turns (task, solution) into files and a command."""

    sandbox_language: str

    def files(self, task: Task, solution: str) -> dict[str, str]:
        """Files of one task directory (the solution joined with the hidden test)."""
        ...

    def command(self) -> str:
        """Shell command run inside a task directory; exit 0 means passed."""
        ...

    def prepare(self, dirs: Sequence[str]) -> tuple[dict[str, str], list[str] | None]:
        """Extra workspace files and a command run once before the tasks (or ``None``)."""
        ...


class PythonScorer:
    """``prompt + completion + test + check(entry_point)`` run by ``python3``."""

    sandbox_language = "python"

    def files(self, task: Task, solution: str) -> dict[str, str]:
        program = f"{solution.rstrip()}\n\n\n{task.test.rstrip()}\n\n\ncheck({task.entry_point})\n"
        return {"test.py": program}

    def command(self) -> str:
        return "python3 test.py"

    def prepare(self, dirs: Sequence[str]) -> tuple[dict[str, str], list[str] | None]:
        return {}, None


JS_MD5_SHIM = """// codeproof: the `js-md5` module used by one HumanEval-X task, on Node's crypto.
const crypto = require("crypto");
module.exports = (text) => crypto.createHash("md5").update(String(text)).digest("hex");
"""


class JavaScriptScorer:
    """Solution + a throwing ``console.assert`` + the test, run by ``node``."""

    sandbox_language = "node"

    def files(self, task: Task, solution: str) -> dict[str, str]:
        return {"test.js": f"{solution.rstrip()}\n{JS_THROWING_ASSERT}\n{task.test}\n"}

    def command(self) -> str:
        return "node test.js"

    def prepare(self, dirs: Sequence[str]) -> tuple[dict[str, str], list[str] | None]:
        return {"node_modules/js-md5/index.js": JS_MD5_SHIM}, None


class JavaScorer:
    """``class Solution`` and the test's ``public class Main`` in one ``Main.java``."""

    sandbox_language = "java"

    def files(self, task: Task, solution: str) -> dict[str, str]:
        return {"Main.java": f"{solution.rstrip()}\n\n{task.test}\n"}

    def command(self) -> str:
        return (
            "if [ -f compile.err ]; then cat compile.err; exit 1; fi; "
            "exec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -cp . Main"
        )

    def prepare(self, dirs: Sequence[str]) -> tuple[dict[str, str], list[str] | None]:
        return {"BatchCompile.java": JAVA_BATCH_COMPILER}, [
            "java",
            "-XX:+UseSerialGC",
            "BatchCompile.java",
            *dirs,
        ]


LANGUAGE_SCORERS: dict[Language, LanguageScorer] = {
    "python": PythonScorer(),
    "javascript": JavaScriptScorer(),
    "java": JavaScorer(),
}


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

    def _session(self, sandbox_language: str) -> SandboxSession:
        if self._closed:  # e.g. a task still running after Ctrl-C ended the evaluation
            raise SandboxError("the scorer is closed", backend="scorer")
        session = self._sessions.get(sandbox_language)
        if session is None:
            session = self._stack.enter_context(self.open_session(sandbox_language, self.limits))
            self._sessions[sandbox_language] = session
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

    def _score_batch(self, language: Language, items: Sequence[tuple[Task, str]]) -> list[Score]:
        scorer = LANGUAGE_SCORERS[language]
        session = self._session(scorer.sandbox_language)
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
