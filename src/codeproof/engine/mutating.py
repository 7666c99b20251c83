"""The mutation analysis of the chosen code, in the sandbox and time-boxed.

Each sampled mutant (:func:`codeproof.proof.mutation.sample`) is first run on the probe
inputs, then each distinct behaviour once against the kept tests
(:func:`codeproof.proof.mutation.group`); everything stops when the time box
(``EngineOptions.proof_budget_s``) is spent, and the score counts what was run. A mutant
whose probe run hangs is told apart by the hang itself (as PIT counts a timed-out mutant
as detected); a mutant's test run is cut at three times the chosen code's (at least
10 s).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from codeproof.core.proof import Mutation
from codeproof.core.types import TestReport
from codeproof.engine.context import Context, digest
from codeproof.languages.base import CALL_TIMEOUT_S, MARK
from codeproof.languages.code_mutants import CodeMutant
from codeproof.proof.mutation import Grouping, group, kills, sample

logger = logging.getLogger(__name__)

MIN_TEST_TIMEOUT_S = 10.0
MIN_PROBE_TIMEOUT_S = 10.0
HANG = "!TimeoutError"


@dataclass
class Analysis:
    """What the mutation analysis found (the behaviours keep their inputs of difference)."""

    mutation: Mutation
    mutants: list[tuple[str, CodeMutant]] = field(default_factory=list)
    """``(path, mutant)`` of every sampled mutant, in the order they were run."""
    grouping: Grouping = field(default_factory=Grouping)
    killed: list[str] = field(default_factory=list)
    """Hashes of the mutants the tests killed."""

    def files(self, base: dict[str, str], index: int) -> dict[str, str]:
        """The chosen code's files with mutant ``index`` in place."""
        path, mutant = self.mutants[index]
        return {**base, path: mutant.source}


class Clock:
    """The time box."""

    def __init__(self, budget_s: float) -> None:
        self.budget_s = budget_s
        self.start = time.monotonic()

    @property
    def left(self) -> float:
        return self.budget_s - (time.monotonic() - self.start)

    @property
    def spent(self) -> float:
        return time.monotonic() - self.start


def source_mutants(ctx: Context, files: dict[str, str]) -> list[tuple[str, CodeMutant]]:
    """Every mutant of the module's own source files (not its tests)."""
    language = ctx.language
    generate = language.proving.mutants
    if generate is None:
        return []
    layout = language.layout
    return [
        (path, mutant)
        for path, source in sorted(files.items())
        if path.endswith(layout.extensions) and not layout.is_test_path(path)
        for mutant in generate(source)
    ]


def probe_outputs(
    ctx: Context, files: dict[str, str], calls: Sequence[str], timeout_s: float
) -> tuple[list[str] | None, float, bool]:
    """``(outputs, seconds, hung)`` of ``files`` on ``calls`` (outputs ``None`` when the
    program did not compile, load or print every output)."""
    prober = ctx.language.choosing.prober
    if prober is None or not calls:
        return None, 0.0, False
    stem = ctx.language.layout.source_path(ctx.module.name).rsplit(".", 1)[0]
    program = prober.program(calls, stem)
    run = ctx.run_program(
        {**files, prober.path: program}, list(prober.command or (prober.path,)), timeout_s
    )
    lines = [line[len(MARK) :] for line in run.stdout.splitlines() if line.startswith(MARK)]
    if run.timed_out:
        return None, run.duration_s, True
    if len(lines) != len(calls):
        return None, run.duration_s, False
    return [str(json.loads(line)) for line in lines], run.duration_s, False


def analyse(
    ctx: Context,
    files: dict[str, str],
    tests: dict[str, str],
    report: TestReport,
    calls: Sequence[str],
    *,
    killed_before: frozenset[str] = frozenset(),
) -> Analysis:
    """Run sampled mutants of ``files`` on the probe ``calls``, then each behaviour
    against ``tests`` (``report``: the chosen code's run of them), within the time box."""
    options = ctx.options
    clock = Clock(options.proof_budget_s)
    made = source_mutants(ctx, files)
    taken = sample([m for _, m in made], options.mutants, digest(files))
    index = {id(m): path for path, m in made}
    mutants = [(index[id(m)], m) for m in taken]
    analysis = Analysis(Mutation(generated=len(made), sampled=len(taken)), mutants)
    outputs, hung = _probe_all(ctx, analysis, files, calls, clock)
    probed = bool(outputs) and outputs[0] is not None
    if outputs and outputs[0] is not None:
        analysis.grouping = group(outputs[0], outputs[1:])
    else:  # nothing to probe: every mutant is a behaviour of its own
        analysis.grouping = group(["!original"], [[str(i)] for i in range(len(mutants))])
    _test_all(ctx, analysis, files, tests, report, clock, hung, killed_before, probed=probed)
    _summarize(analysis, len(calls) if probed else 0, clock)
    return analysis


def telling(original: list[str] | None) -> bool:
    """Whether the chosen code's probe outputs can tell behaviours apart: some probe
    returned a value. Probes that all raise (a class's methods called as functions,
    ``add(4)`` of ``Tally().add(4)``) exercise nothing: every mutant would look
    equivalent, so each is run against the tests instead."""
    return original is not None and any(not out.startswith("!") for out in original)


def _probe_all(
    ctx: Context,
    analysis: Analysis,
    files: dict[str, str],
    calls: Sequence[str],
    clock: Clock,
) -> tuple[list[list[str] | None], set[int]]:
    """The chosen code's outputs first, then each mutant's while time is left (the list
    ends where the time box did)."""
    if ctx.language.choosing.prober is None or not calls:
        return [], set()
    budget = 30.0 + CALL_TIMEOUT_S * len(calls)
    original, seconds, _ = probe_outputs(ctx, files, calls, budget)
    if original is None:
        logger.info("proof: the chosen code could not be probed; mutants not probed")
        return [], set()
    if not telling(original):
        logger.info("proof: every probe of the chosen code raises; mutants not probed")
        return [], set()
    limit = max(MIN_PROBE_TIMEOUT_S, 3 * seconds)
    outputs: list[list[str] | None] = [original]
    hung: set[int] = set()
    for i in range(len(analysis.mutants)):
        if clock.left < limit:  # a run the time box would cut is no evidence of a hang
            analysis.mutation.timed_out = True
            break
        got, _, hang = probe_outputs(ctx, analysis.files(files, i), calls, limit)
        if hang:
            hung.add(i)
            got = [HANG] * len(calls)
        outputs.append(got)
    analysis.mutation.probed = len(outputs) - 1
    return outputs, hung


def _test_all(
    ctx: Context,
    analysis: Analysis,
    files: dict[str, str],
    tests: dict[str, str],
    report: TestReport,
    clock: Clock,
    hung: set[int],
    killed_before: frozenset[str],
    *,
    probed: bool,
) -> None:
    """Each behaviour's first mutant against the tests, while time is left. Unprobed, a
    mutant that does not compile (nothing runs) is stillborn, not killed."""
    timeout = max(MIN_TEST_TIMEOUT_S, 3 * report.duration_s)
    grouping = analysis.grouping
    for behaviour in list(grouping.behaviours):
        first = behaviour.mutants[0]
        key = digest(analysis.mutants[first][1].source)
        if first in hung or key in killed_before:
            behaviour.killed = True
        elif clock.left < timeout:  # a run the time box would cut is no evidence of a kill
            analysis.mutation.timed_out = True
            break
        else:
            run = ctx.run_tests(analysis.files(files, first), tests, timeout)
            if not probed and run.total == 0 and not run.timed_out:
                grouping.behaviours.remove(behaviour)
                grouping.stillborn.append(first)
                continue
            behaviour.killed = kills(report, run)
        if behaviour.killed:
            analysis.killed.append(key)


def _summarize(analysis: Analysis, inputs: int, clock: Clock) -> None:
    mutation, grouping = analysis.mutation, analysis.grouping
    tested = [b for b in grouping.behaviours if b.killed is not None]
    operators: dict[str, int] = {}
    for _, mutant in analysis.mutants:
        operators[mutant.operator] = operators.get(mutant.operator, 0) + 1
    mutation.stillborn = len(grouping.stillborn)
    mutation.equivalent = len(grouping.equivalent)
    mutation.behaviours = len(grouping.behaviours)
    mutation.tested = len(tested)
    mutation.killed = sum(1 for b in tested if b.killed)
    mutation.survivors = [analysis.mutants[b.mutants[0]][1].label for b in tested if not b.killed]
    mutation.operators = operators
    mutation.inputs = inputs
    mutation.budget_s = clock.budget_s
    mutation.seconds = round(clock.spent, 2)
