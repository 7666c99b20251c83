"""The request benchmark: one model call vs ``codeproof new --yes`` on user requests.

For every request and mode a project is produced (:mod:`.request_modes`), the hidden
acceptance tests are copied into it and run in the sandbox through the language's
toolchain server, and one line is appended to ``results.jsonl`` (so ``--resume`` skips
it). ``summary.json`` and ``report.md`` are written at the end (:mod:`.request_report`).
"""

from __future__ import annotations

import html
import json
import logging
import shutil
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from codeproof.agents.programmer import WHOLE_MAX_TOKENS
from codeproof.core.errors import (
    ContextLengthError,
    InputError,
    ProviderResponseError,
    ProviderTimeoutError,
    ToolchainError,
)
from codeproof.core.types import TestReport
from codeproof.evaluation.metering import MeteredModel
from codeproof.evaluation.request_cases import RequestCase
from codeproof.evaluation.request_modes import (
    OwnModule,
    PipelineLauncher,
    Produced,
    solve_one_call,
    write_project,
)
from codeproof.languages.registry import layout_for
from codeproof.llm.provider import BaseChatModel
from codeproof.toolchains.api import ToolchainAPI

logger = logging.getLogger(__name__)

RequestMode = Literal["one-call", "pipeline"]
REQUEST_MODES: tuple[RequestMode, ...] = ("one-call", "pipeline")
RESULTS_FILE = "results.jsonl"
RUN_FILE = "run.json"
FAILURES_KEPT = 20

#: Failures that end one request's mode (recorded with ``error``), not the whole run.
REQUEST_ERRORS = (ContextLengthError, ProviderTimeoutError, ProviderResponseError)

ToolchainOpener = Callable[[str], AbstractContextManager[ToolchainAPI]]
Progress = Callable[["RequestResult", int, int], None]


class RequestResult(BaseModel):
    """What one mode did on one request, scored on the hidden acceptance tests."""

    id: str
    mode: RequestMode
    language: str
    multi_module: bool = False
    checks: int
    passed: int
    met: bool
    """Every acceptance check passed."""
    status: str
    """``met``, ``partial``, ``failed``, ``no code``, ``timeout`` or ``error``."""
    wall_s: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_calls: int = 0
    cache_hits: int = 0
    files: list[str] = Field(default_factory=list)
    """The produced project's files given to the acceptance run (its own tests left out)."""
    stated_files_missing: list[str] = Field(default_factory=list)
    failures: list[str] = Field(default_factory=list)
    """Failing acceptance checks (name: first line of the message)."""
    score_message: str = ""
    """The acceptance run's own message (a compilation failure, a time-out)."""
    error: str | None = None
    unnamed_blocks: int = 0
    exit_code: int | None = None
    own_status: str | None = None
    """Pipeline: the run's own status (``done`` means it reported success)."""
    own_green: bool | None = None
    """Pipeline: every module of its own report passed its own tests."""
    own_modules: list[OwnModule] | None = None

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def fraction(self) -> float:
        return self.passed / self.checks


class RequestRunInfo(BaseModel):
    """Who produced the results of an output directory (a resumed run must match)."""

    provider: str
    model: str
    requests_dir: str


@dataclass(frozen=True)
class RequestEvalOptions:
    """How to run the request benchmark."""

    modes: tuple[RequestMode, ...] = REQUEST_MODES
    max_tokens: int = WHOLE_MAX_TOKENS
    """Completion tokens of the one call."""
    test_timeout_s: float = 60.0
    """Time limit of one acceptance run in the sandbox."""
    resume: bool = False


class ResultLog:
    """``results.jsonl``: one line per request and mode, appended as each finishes."""

    def __init__(self, out_dir: Path) -> None:
        self.path = out_dir / RESULTS_FILE
        self._lock = threading.Lock()

    def load(self) -> list[RequestResult]:
        """Every stored result (a later line wins for the same request and mode).

        Raises:
            InputError: A line is not a result.
        """
        if not self.path.is_file():
            return []
        latest: dict[tuple[str, str], RequestResult] = {}
        for number, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                result = RequestResult.model_validate_json(line)
            except ValidationError as exc:
                raise InputError(
                    f"{self.path}:{number}: not a valid result line",
                    hint="delete the broken line or use another --out directory",
                ) from exc
            latest[(result.id, result.mode)] = result
        return list(latest.values())

    def append(self, result: RequestResult) -> None:
        with self._lock, self.path.open("a", encoding="utf-8") as fh:
            fh.write(result.model_dump_json() + "\n")
            fh.flush()


def prepare_out_dir(out_dir: Path, info: RequestRunInfo, *, resume: bool) -> list[RequestResult]:
    """Create ``out_dir``; with ``resume``, the results already there.

    Raises:
        InputError: Results exist without ``resume``, or they come from another model.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    log, run_file = ResultLog(out_dir), out_dir / RUN_FILE
    existing = log.load()
    if existing and not resume:
        raise InputError(
            f"{log.path} already holds results",
            hint="pass --resume to continue that run, or choose another --out directory",
        )
    if run_file.is_file():
        previous = RequestRunInfo.model_validate_json(run_file.read_text(encoding="utf-8"))
        for key in ("provider", "model"):
            if getattr(previous, key) != getattr(info, key):
                raise InputError(
                    f"--resume: {out_dir} holds results of {key} {getattr(previous, key)!r}",
                    hint="use the same --provider/--model, or another --out directory",
                )
    run_file.write_text(info.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return existing if resume else []


def _status(produced: Produced, report: TestReport | None, passed: int, checks: int) -> str:
    if produced.status != "ok":
        return produced.status
    if not produced.files or report is None:
        return "no code"
    if passed == checks:
        return "met"
    return "partial" if passed else "failed"


def _failures(report: TestReport) -> list[str]:
    failing = report.failures
    return [
        f"{t.name}: {(html.unescape(t.message).strip().splitlines() or [''])[0][:200]}"
        for t in failing[:FAILURES_KEPT]
    ]


def score(
    runner: ToolchainAPI, case: RequestCase, produced: Produced, timeout_s: float
) -> tuple[list[str], TestReport | None]:
    """Run the acceptance tests on the produced project in the sandbox.

    The project's own test files are left out (one that does not compile would fail a
    Java build), so the acceptance tests are the only tests. Returns the files given and
    the report (None when there is no code).
    """
    layout = layout_for(case.language)
    files = {
        path: content
        for path, content in produced.files.items()
        if not layout.is_test_path(path) and path not in case.acceptance
    }
    if not any(layout.owns(path) for path in files):
        return sorted(files), None
    return sorted(files), runner.run_tests(files, dict(case.acceptance), timeout_s)


def result_of(
    case: RequestCase,
    mode: RequestMode,
    produced: Produced,
    files: list[str],
    report: TestReport | None,
) -> RequestResult:
    """The result line of one request and mode."""
    checks = case.meta.checks
    passed = min(report.passed, checks) if report is not None else 0
    modules = produced.own_modules
    return RequestResult(
        id=case.id,
        mode=mode,
        language=case.language,
        multi_module=case.meta.multi_module,
        checks=checks,
        passed=passed,
        met=passed == checks,
        status=_status(produced, report, passed, checks),
        wall_s=round(produced.wall_s, 3),
        prompt_tokens=produced.prompt_tokens,
        completion_tokens=produced.completion_tokens,
        llm_calls=produced.llm_calls,
        cache_hits=produced.cache_hits,
        files=files,
        stated_files_missing=[f for f in case.meta.files if f not in files],
        failures=_failures(report) if report is not None else [],
        score_message=(report.message if report is not None else "")[:1000],
        error=produced.error,
        unnamed_blocks=produced.unnamed_blocks,
        exit_code=produced.exit_code,
        own_status=produced.own_status,
        own_green=None
        if modules is None
        else bool(modules) and all(m.status == "passed" for m in modules),
        own_modules=modules,
    )


class RequestEvaluator:
    """Produces, scores and records every request in every mode, for one output directory.

    Args:
        model: The provider of the one-call mode (None when only the pipeline runs).
        toolchains: Language -> opened toolchain client (scoring in the sandbox).
        launcher: Runs ``codeproof new`` (pipeline mode).
        options: What to run.
        out_dir: Where projects, results and reports go.
        progress: Called after each request and mode.
    """

    def __init__(
        self,
        model: BaseChatModel | None,
        toolchains: ToolchainOpener,
        launcher: PipelineLauncher,
        options: RequestEvalOptions,
        out_dir: Path,
        progress: Progress | None = None,
    ) -> None:
        self.model = model
        self.toolchains = toolchains
        self.launcher = launcher
        self.options = options
        self.out_dir = out_dir
        self.log = ResultLog(out_dir)
        self.progress = progress
        self._stack = ExitStack()
        self._runners: dict[str, ToolchainAPI] = {}
        self._lock = threading.Lock()
        self._finished = self._total = 0

    def run(self, cases: Sequence[RequestCase], info: RequestRunInfo) -> list[RequestResult]:
        """Every (request, mode) not yet in ``results.jsonl``; returns every stored result
        of ``cases`` (a resumed run's, and other modes' of an earlier run, included)."""
        if "one-call" in self.options.modes and self.model is None:
            raise ValueError("the one-call mode needs a model")
        results = prepare_out_dir(self.out_dir, info, resume=self.options.resume)
        done = {(r.id, r.mode) for r in results}
        wanted = {c.id for c in cases}
        self._total = len(cases) * len(self.options.modes)
        self._finished = sum(r.id in wanted and r.mode in self.options.modes for r in results)
        try:
            for mode in self.options.modes:
                pending = [c for c in cases if (c.id, mode) not in done]
                results += self._run_mode(mode, pending)
        finally:
            self._stack.close()
            self._runners.clear()
        order = {c.id: i for i, c in enumerate(cases)}
        kept = [r for r in results if r.id in wanted]
        return sorted(kept, key=lambda r: (order[r.id], REQUEST_MODES.index(r.mode)))

    def _run_mode(self, mode: RequestMode, cases: Sequence[RequestCase]) -> list[RequestResult]:
        if mode == "pipeline":  # each run loads its own model: one at a time
            return [self._run_one(mode, case) for case in cases]
        assert self.model is not None
        with ThreadPoolExecutor(max(1, self.model.slots), thread_name_prefix="one-call") as pool:
            return list(pool.map(lambda case: self._run_one(mode, case), cases))

    def _runner(self, language: str) -> ToolchainAPI:
        with self._lock:
            if language not in self._runners:
                self._runners[language] = self._stack.enter_context(self.toolchains(language))
            return self._runners[language]

    def _project_dir(self, case: RequestCase, mode: RequestMode) -> Path:
        directory = self.out_dir / case.id / mode
        shutil.rmtree(directory, ignore_errors=True)  # a resumed run redoes it whole
        directory.mkdir(parents=True)
        return directory

    def _produce(self, mode: RequestMode, case: RequestCase) -> Produced:
        directory = self._project_dir(case, mode)
        project = directory / "project"
        if mode == "pipeline":
            return self.launcher.run(case, project, directory)
        assert self.model is not None
        metered = MeteredModel(self.model)
        try:
            produced = solve_one_call(metered, case, max_tokens=self.options.max_tokens)
        except REQUEST_ERRORS as exc:
            logger.warning("one-call %s: %s", case.id, exc)
            produced = Produced(status="error", error=f"{type(exc).__name__}: {exc}")
        usage = metered.stats.snapshot()
        produced.prompt_tokens, produced.completion_tokens = (
            usage.prompt_tokens,
            usage.completion_tokens,
        )
        produced.llm_calls, produced.cache_hits = usage.calls, usage.cache_hits
        write_project(project, produced.files)
        return produced

    def _run_one(self, mode: RequestMode, case: RequestCase) -> RequestResult:
        produced = self._produce(mode, case)
        try:
            files, report = score(
                self._runner(case.language), case, produced, self.options.test_timeout_s
            )
        except (InputError, ToolchainError) as exc:  # a project the sandbox cannot take
            logger.warning("%s %s: scoring failed: %s", mode, case.id, exc)
            produced.status, produced.error = "error", f"scoring: {exc}"
            files, report = sorted(produced.files), None
        result = result_of(case, mode, produced, files, report)
        self.log.append(result)
        with self._lock:
            self._finished += 1
            finished = self._finished
        if self.progress is not None:
            self.progress(result, finished, self._total)
        return result


def write_json(path: Path, data: object) -> None:
    """``data`` as indented JSON, written beside and renamed into place."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
