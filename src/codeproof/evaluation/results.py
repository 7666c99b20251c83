"""Per-task results and the append-only ``results.jsonl`` store (resumable)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from codeproof.core.errors import InputError
from codeproof.evaluation.datasets import Language

Mode = Literal["single", "pipeline"]
MODES: tuple[Mode, ...] = ("single", "pipeline")
RESULTS_FILE = "results.jsonl"
RUN_FILE = "run.json"


class TaskResult(BaseModel):
    """What one mode did on one task."""

    task_id: str
    mode: Mode
    language: Language
    passed: bool
    status: str
    own_tests_green: bool | None = None
    """Pipeline: reported green (kept tests pass on a moderately strong proof)."""
    tests_green: bool | None = None
    """Pipeline: the kept tests pass, whatever the proof says (``None`` before proofs)."""
    mutation_score: float | None = None
    """Pipeline: the proof's mutation score of the kept tests."""
    proof_strength: str | None = None
    assumptions: list[str] | None = None
    """Pipeline: questions on the drafts' disagreements answered by default."""
    kept_over_tests: list[str] | None = None
    """Pipeline: the code's answers kept by default over designed checks that expected
    another (the checks it contradicts; :attr:`codeproof.core.proof.Proof.kept_choices`)."""
    attempts: int = 1
    wall_s: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    """Prompt tokens the engine reused from its prompt cache."""
    draft_tokens: int = 0
    """Tokens proposed by speculative decoding; ``draft_accepted`` of them were kept."""
    draft_accepted: int = 0
    cost_usd: float = 0.0
    llm_calls: int = 0
    cache_hits: int = 0
    final_code: str = ""
    error: str | None = None
    score_output: str = ""
    history: list[str] = Field(default_factory=list)
    """Pipeline only: the candidate choice, quarantined tests and each repair's summary."""
    drafts_passed: list[bool] | None = None
    """Pipeline only: whether each first draft, as written, passes the hidden tests."""
    chosen_draft: int | None = None
    """Pipeline only: the draft the choice picked (before repair)."""
    own_tests: dict[str, str] | None = None
    """Pipeline only: the designed tests the final code was held to (after set-asides)."""
    own_failures: list[str] | None = None
    """Pipeline only: the final code's failing own tests (name: first message line)."""
    draft_files: list[dict[str, str]] | None = None
    """Pipeline only: every first draft's files, in candidate order (to replay the choice)."""
    designed_tests: dict[str, str] | None = None
    """Pipeline only: the designed tests as written, before any set-aside."""
    probe_inputs: list[str] | None = None
    """Pipeline only: the input designer's proposed probe inputs."""

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class RunInfo(BaseModel):
    """What was evaluated; a resumed run must match it."""

    dataset: str
    provider: str
    model: str
    modes: list[Mode]
    limit: int | None
    sample_seed: int
    max_attempts: int
    task_ids: list[str]
    candidates: int | None = None
    probe_inputs: int | None = None
    extra_candidates: int | None = None
    """Runs before the evidence ladder: completions drawn when every draft missed an example."""
    proof: dict[str, Any] | None = None
    """The proof's settings (``ProofSettings``) of a pipeline run."""
    engine: str | None = None
    """Which pipeline ran: ``ladder`` (the engine of ``codeproof new``); ``None``: the
    evaluation's own fixed fan-out, before the engine was shared."""
    paired_from: dict[str, str] | None = None
    """Set by ``codeproof eval-pair``: each mode's ``provider/model`` (two runs joined)."""


class ResultStore:
    """``results.jsonl`` in an output directory, appended one line per finished task."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.path = out_dir / RESULTS_FILE
        self._lock = threading.Lock()

    def load(self) -> list[TaskResult]:
        """Every stored result (later lines win for the same task and mode).

        Raises:
            InputError: A line is not a valid result.
        """
        if not self.path.is_file():
            return []
        latest: dict[tuple[str, str], TaskResult] = {}
        for lineno, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                result = TaskResult.model_validate_json(line)
            except ValidationError as exc:
                raise InputError(
                    f"{self.path.name}:{lineno}: not a valid result line",
                    hint="delete the broken line or use another --out directory",
                ) from exc
            latest[(result.task_id, result.mode)] = result
        return list(latest.values())

    def append(self, result: TaskResult) -> None:
        """Append one result and flush it to disk (survives an interruption)."""
        line = result.model_dump_json() + "\n"
        with self._lock, self.path.open("a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()

    def prepare(self, info: RunInfo, *, resume: bool) -> list[TaskResult]:
        """Create the directory; with ``resume`` return the results already there.

        Raises:
            InputError: Results exist without ``resume``, or ``resume`` targets a run of
                another dataset, model or sample.
        """
        self.out_dir.mkdir(parents=True, exist_ok=True)
        run_file = self.out_dir / RUN_FILE
        existing = self.load()
        if existing and not resume:
            raise InputError(
                f"{self.path} already holds results",
                hint="pass --resume to continue that run, or choose another --out directory",
            )
        if resume and run_file.is_file():
            previous = RunInfo.model_validate(json.loads(run_file.read_text(encoding="utf-8")))
            if previous.paired_from is not None:
                raise InputError(
                    f"{self.out_dir} holds a pairing of two runs (eval-pair), not a run",
                    hint="resume one of the paired runs, then pair them again",
                )
            _check_same_run(previous, info)
        run_file.write_text(info.model_dump_json(indent=2) + "\n", encoding="utf-8")
        return existing if resume else []


def load_run_info(out_dir: Path) -> RunInfo:
    """The ``run.json`` of an output directory.

    Raises:
        InputError: It is missing or not a run description.
    """
    path = out_dir / RUN_FILE
    try:
        return RunInfo.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError as exc:
        raise InputError(
            f"{out_dir} holds no {RUN_FILE}",
            hint="pass the --out directory of a codeproof eval run",
        ) from exc
    except ValueError as exc:  # invalid JSON or a pydantic ValidationError
        raise InputError(
            f"{path} is not a run description ({exc.__class__.__name__})",
            hint="restore it from the run's output or re-run the evaluation",
        ) from exc


def _check_same_run(previous: RunInfo, current: RunInfo) -> None:
    for key in (
        "dataset",
        "provider",
        "model",
        "limit",
        "sample_seed",
        "max_attempts",
        "candidates",
        "probe_inputs",
        "extra_candidates",
    ):
        before, now = getattr(previous, key), getattr(current, key)
        if before != now and None not in (before, now):
            raise InputError(
                f"--resume: this directory holds a run with {key}={before!r}, not {now!r}",
                hint="use the same options as the interrupted run, or another --out directory",
            )
    both = "pipeline" in previous.modes and "pipeline" in current.modes
    if both and previous.engine != current.engine:
        raise InputError(
            f"--resume: this directory holds a run of another pipeline ({previous.engine!r})",
            hint="resume it with the codeproof version that made it, or use another --out",
        )
