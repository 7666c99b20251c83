"""Make a pipeline run's choices among drafts again, without a model (``codeproof eval-replay``).

A pipeline result keeps what its choice was made from (the drafts, the designed tests as
written and the proposed probe inputs) and whether each draft passes the hidden tests.
Replaying runs the *current* :func:`~codeproof.choosing.selection.choose` on that
evidence in the sandbox and compares its pick with the stored one: a change to the
selection is measured in minutes on drafts that took hours to generate. The designed
tests are taken as the engine takes them now (repeats dropped). Repair is not
replayed, so the figure is "the chosen draft passes", not pass@1.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from pydantic import BaseModel

from codeproof.choosing.mutation import MUTANTS
from codeproof.choosing.selection import choose
from codeproof.contract.listed import stated_errors
from codeproof.evaluation.datasets import Task
from codeproof.evaluation.pipeline import TestRunner
from codeproof.evaluation.results import TaskResult
from codeproof.evaluation.taskspec import module_for, spec_for
from codeproof.languages.test_edit import drop_repeated

logger = logging.getLogger(__name__)

REPLAY_FILE = "replay.json"


def replay_file(
    *, with_inputs: bool = True, with_mutants: bool = True, with_repeats: bool = False
) -> str:
    """``replay.json``, or tagged with the levers turned from their defaults:
    ``replay-no-inputs-no-mutants-repeats.json`` with all three."""
    tags = (
        ("" if with_inputs else "-no-inputs")
        + ("" if with_mutants else "-no-mutants")
        + ("-repeats" if with_repeats else "")
    )
    return REPLAY_FILE.replace(".", f"{tags}.", 1)


class ReplayedTask(BaseModel):
    """One task's choice, as stored and as made again."""

    task_id: str
    drafts_passed: list[bool]
    stored: int | None
    replayed: int
    note: str

    @property
    def stored_passed(self) -> bool:
        return self.stored is not None and self.drafts_passed[self.stored]

    @property
    def replayed_passed(self) -> bool:
        return self.drafts_passed[self.replayed]


class ReplaySummary(BaseModel):
    """How the replayed choices compare with the stored ones."""

    tasks: int
    with_inputs: bool
    with_mutants: bool = True
    with_repeats: bool = False
    any_draft_passed: int
    stored_passed: int
    replayed_passed: int
    gained: list[str]
    lost: list[str]
    changed: int
    rows: list[ReplayedTask]


def replayable(result: TaskResult) -> bool:
    """Whether a result holds the evidence of its choice (runs from before it do not)."""
    return (
        result.mode == "pipeline"
        and bool(result.draft_files)
        and result.drafts_passed is not None
        and len(result.drafts_passed) == len(result.draft_files or [])
    )


def replay_task(
    client: TestRunner,
    result: TaskResult,
    task: Task,
    *,
    with_inputs: bool = True,
    with_mutants: bool = True,
    with_repeats: bool = False,
    timeout_s: float = 60.0,
) -> ReplayedTask:
    """Make one task's choice again through a started toolchain client.

    Args:
        client: The toolchain of the task's language.
        result: A :func:`replayable` pipeline result.
        task: Its task (the examples of its prompt are checked again).
        with_inputs: Use the stored proposed probe inputs (``False`` measures the
            choice without them).
        with_mutants: Break ties by mutated inputs (``False`` measures the choice
            without them).
        with_repeats: Keep the designed tests that repeat an earlier one, which the
            engine drops (:func:`~codeproof.languages.test_edit.drop_repeated`).
        timeout_s: Time limit of one test run.
    """
    spec, module = spec_for(task), module_for(task)
    designed = result.designed_tests or {}
    if not with_repeats:
        designed, _ = drop_repeated(module.language, designed)
    choice = choose(
        lambda files, tests: client.run_tests(files, tests, timeout_s),
        result.draft_files or [],
        designed,
        module,
        spec.acceptance_examples,
        lambda files, args, timeout: client.run(files, args, timeout_s=timeout),
        (result.probe_inputs or []) if with_inputs else [],
        MUTANTS if with_mutants else 0,
        stated_errors(task.prompt),
    )
    return ReplayedTask(
        task_id=result.task_id,
        drafts_passed=list(result.drafts_passed or []),
        stored=result.chosen_draft,
        replayed=choice.index,
        note=choice.note,
    )


def summarize(
    rows: Sequence[ReplayedTask],
    *,
    with_inputs: bool,
    with_mutants: bool = True,
    with_repeats: bool = False,
) -> ReplaySummary:
    """Counts of chosen drafts passing, before and after, and the tasks that changed."""
    return ReplaySummary(
        tasks=len(rows),
        with_inputs=with_inputs,
        with_mutants=with_mutants,
        with_repeats=with_repeats,
        any_draft_passed=sum(any(r.drafts_passed) for r in rows),
        stored_passed=sum(r.stored_passed for r in rows),
        replayed_passed=sum(r.replayed_passed for r in rows),
        gained=[r.task_id for r in rows if r.replayed_passed and not r.stored_passed],
        lost=[r.task_id for r in rows if r.stored_passed and not r.replayed_passed],
        changed=sum(r.stored != r.replayed for r in rows),
        rows=list(rows),
    )


def pending(
    results: Sequence[TaskResult], tasks: Mapping[str, Task]
) -> list[tuple[TaskResult, Task]]:
    """The replayable pipeline results whose task is in ``tasks``, in result order."""
    out = []
    for result in results:
        task = tasks.get(result.task_id)
        if task is None:
            logger.warning("replay: %s is not in the dataset; skipped", result.task_id)
        elif replayable(result):
            out.append((result, task))
    return out
