"""Mutation analysis, language-free: which mutants to run, how they group by behaviour,
and whether a test run tells a mutant apart from the chosen code.

Running a mutant costs a sandbox run, so at most a budget of them are taken, spread over
the operators (a source full of constants must not crowd out its one comparison). Each
is first run on the probe inputs: a mutant with the chosen code's outputs everywhere
looks *equivalent* (no input known tells them apart) and is not counted; mutants with the
same outputs as each other are one *behaviour*, run against the tests once.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from codeproof.core.types import TestReport
from codeproof.languages.code_mutants import OPERATORS, CodeMutant

Outputs = list[str] | None


def sample(mutants: Sequence[CodeMutant], limit: int, seed: str) -> list[CodeMutant]:
    """Up to ``limit`` mutants, taken in turn from each operator's shuffled mutants
    (operators in :data:`OPERATORS` order; the same ``seed`` gives the same sample)."""
    rng = random.Random(zlib.crc32(seed.encode()))
    pools: dict[str, list[CodeMutant]] = {}
    for mutant in mutants:
        pools.setdefault(mutant.operator, []).append(mutant)
    order = [op for op in OPERATORS if op in pools] + sorted(set(pools) - set(OPERATORS))
    for operator in order:
        rng.shuffle(pools[operator])
    out: list[CodeMutant] = []
    turn = 0
    while len(out) < limit and any(turn < len(pools[op]) for op in order):
        out += [pools[op][turn] for op in order if turn < len(pools[op])][: limit - len(out)]
        turn += 1
    return out


@dataclass
class Behaviour:
    """Mutants with the same outputs on every probe input (tested once, as one)."""

    outputs: tuple[str, ...]
    mutants: list[int] = field(default_factory=list)
    """Indices of its mutants (the first one is run against the tests)."""
    differs: list[int] = field(default_factory=list)
    """Indices of the probe inputs on which it differs from the chosen code."""
    killed: bool | None = None
    """Whether the kept tests tell it apart (``None``: not run before the time box)."""
    killed_by_checks: bool = False


@dataclass
class Grouping:
    stillborn: list[int] = field(default_factory=list)
    equivalent: list[int] = field(default_factory=list)
    behaviours: list[Behaviour] = field(default_factory=list)


def group(original: Sequence[str], outputs: Sequence[Outputs]) -> Grouping:
    """Mutants by what their probe ``outputs`` show against the chosen code's ``original``
    (``None``: the mutant could not be probed, it did not compile or load)."""
    found = Grouping()
    by_outputs: dict[tuple[str, ...], Behaviour] = {}
    for i, mine in enumerate(outputs):
        if mine is None or len(mine) != len(original):
            found.stillborn.append(i)
            continue
        key = tuple(mine)
        if key == tuple(original):
            found.equivalent.append(i)
            continue
        behaviour = by_outputs.get(key)
        if behaviour is None:
            differs = [k for k, (a, b) in enumerate(zip(original, mine, strict=True)) if a != b]
            behaviour = by_outputs[key] = Behaviour(key, differs=differs)
            found.behaviours.append(behaviour)
        behaviour.mutants.append(i)
    return found


def kills(original: TestReport, report: TestReport) -> bool:
    """Whether ``report`` (a mutant's run) tells the mutant apart from the chosen code,
    whose run is ``original``: a test passing on the code does not pass on the mutant,
    the run timed out, or nothing ran (the mutant does not load)."""
    if report.timed_out or report.total == 0:
        return True
    passing = {t.name for t in original.tests if t.outcome == "passed"}
    mutant = {t.name for t in report.tests if t.outcome == "passed"}
    return bool(passing - mutant)
