"""Pair the single-shot results of one run with the pipeline results of another.

A long pipeline run is often made apart from the single-shot run it is measured against
(the single-shot run came first, or the pipeline ran over several sessions with
``--resume``, or on another model). Pairing puts the two modes of the same tasks into one
output directory, as if ``--mode both`` had run them, so the summary, the paired
comparison (bootstrap interval, McNemar) and the report are the ones ``codeproof eval``
writes. Only tasks both runs finished are paired, in the pipeline run's order.

The output directory is written whole or not at all: the files are made in a sibling
temporary directory, which then takes the output's place.
"""

from __future__ import annotations

import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path, PurePath

from codeproof.core.errors import InputError
from codeproof.evaluation.report import write_reports
from codeproof.evaluation.results import (
    RESULTS_FILE,
    RUN_FILE,
    ResultStore,
    RunInfo,
    TaskResult,
    load_run_info,
)
from codeproof.evaluation.stats import Summary


@dataclass(frozen=True)
class Paired:
    """What :func:`pair_runs` wrote."""

    out_dir: Path
    info: RunInfo
    summary: Summary
    unpaired: int
    """Pipeline results without a single-shot result of the same task (left out)."""


def _dataset_key(dataset: str) -> str:
    """A dataset file is known by its name (its directory depends on where eval ran)."""
    return PurePath(dataset).name if dataset.endswith(".jsonl") else dataset


def _mode_results(run_dir: Path, mode: str, label: str) -> tuple[RunInfo, list[TaskResult]]:
    info = load_run_info(run_dir)
    results = [r for r in ResultStore(run_dir).load() if r.mode == mode]
    if not results:
        raise InputError(
            f"{run_dir / RESULTS_FILE} holds no {label} result",
            hint=f"pass a run made with `codeproof eval --mode {mode}` (or both)",
        )
    return info, results


def _check_out(out_dir: Path, inputs: tuple[Path, ...]) -> None:
    if any(out_dir.resolve() == p.resolve() for p in inputs):
        raise InputError(
            f"{out_dir} is one of the runs being paired",
            hint="pass another --out directory (the runs are only read)",
        )
    if not out_dir.exists():
        return
    if not out_dir.is_dir():
        raise InputError(f"{out_dir} is not a directory", hint="pass a directory as --out")
    if not any(out_dir.iterdir()):
        return
    try:
        previous = load_run_info(out_dir)
    except InputError:
        previous = None
    if previous is None or previous.paired_from is None:
        raise InputError(
            f"{out_dir} already holds files that are not an earlier pairing",
            hint="pass an empty or new --out directory",
        )


def pair_runs(single_dir: Path, pipeline_dir: Path, out_dir: Path) -> Paired:
    """Write ``out_dir`` as a two-mode run of the tasks both runs finished.

    Args:
        single_dir: The ``--out`` directory of a run with single-shot results.
        pipeline_dir: The ``--out`` directory of a run with pipeline results.
        out_dir: Where the paired run goes: new, empty, or an earlier pairing (replaced).

    Raises:
        InputError: A run is missing or lacks its mode, the runs are on different
            datasets, no task is in both, or ``out_dir`` holds something else.
    """
    single_info, single = _mode_results(single_dir, "single", "single-shot")
    pipe_info, pipeline = _mode_results(pipeline_dir, "pipeline", "pipeline")
    if _dataset_key(single_info.dataset) != _dataset_key(pipe_info.dataset):
        raise InputError(
            f"the runs are on different datasets ({single_info.dataset} and {pipe_info.dataset})",
            hint="pair a single-shot run and a pipeline run of the same dataset",
        )
    _check_out(out_dir, (single_dir, pipeline_dir))
    by_task = {r.task_id: r for r in single}
    pipe_order = list(dict.fromkeys([*pipe_info.task_ids, *(r.task_id for r in pipeline)]))
    finished = {r.task_id: r for r in pipeline}
    ids = [t for t in pipe_order if t in finished and t in by_task]
    if not ids:
        raise InputError(
            f"no task has both a single-shot result in {single_dir} and a pipeline result "
            f"in {pipeline_dir}",
            hint="pair runs of the same tasks (same --limit and --sample-seed, or all tasks)",
        )
    info = pipe_info.model_copy(
        update={
            "modes": ["single", "pipeline"],
            "task_ids": ids,
            "paired_from": {
                "single": f"{single_info.provider}/{single_info.model}",
                "pipeline": f"{pipe_info.provider}/{pipe_info.model}",
            },
        }
    )
    results = [by_task[t] for t in ids] + [finished[t] for t in ids]
    summary = _write_whole(out_dir, info, results)
    return Paired(out_dir, info, summary, unpaired=len(finished) - len(ids))


def _write_whole(out_dir: Path, info: RunInfo, results: list[TaskResult]) -> Summary:
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = out_dir.parent / f".{out_dir.name}.{secrets.token_hex(6)}.tmp"
    staging.mkdir()  # with the user's umask, unlike mkdtemp's private mode
    try:
        (staging / RUN_FILE).write_text(info.model_dump_json(indent=2) + "\n", encoding="utf-8")
        store = ResultStore(staging)
        for result in results:
            store.append(result)
        summary = write_reports(staging, info, results)
        if out_dir.exists():
            shutil.rmtree(out_dir)
        staging.rename(out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return summary
