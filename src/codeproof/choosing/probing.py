"""Compare candidates by what they *return*, not by what the tests expect (MBR-exec).

A small model's tests often expect wrong values, but the inputs they call the code with
are usually fine. Every call of the module's public functions with literal arguments in
the designed tests (and the generated example tests) becomes a probe; each candidate is
run on every probe in the sandbox, and a candidate scores one point for each probe on
which another candidate returns the same value (or raises the same exception type).
The candidate agreeing most with the others is the consensus reading of the task.

Python and JavaScript run a probe script; Java compiles a probe class
(:mod:`codeproof.languages.java.probe`). A language without a prober gives no outputs, and
the choice then rests on the tests alone (:mod:`codeproof.choosing.selection`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Collection, Mapping, Sequence

from codeproof.choosing.examples import interface_names
from codeproof.core.types import Module, ProgramRun
from codeproof.languages import registry
from codeproof.languages.base import (
    CALL_TIMEOUT_S,
    MARK,
    ExampleProbe,
    Language,
    Prober,
    is_broken,
)

logger = logging.getLogger(__name__)


PROBE_TIMEOUT_S = 30.0
"""Fixed budget of one candidate's probe run (start-up, compilation), besides
:data:`CALL_TIMEOUT_S` per call."""


MIN_SHARE = 0.5
"""A consensus output is returned by more than this share of the probed candidates."""


RunProgram = Callable[[dict[str, str], list[str], float], ProgramRun]
"""``(files, command args, timeout) -> report``: one program run in the sandbox."""

Outputs = list[str] | None
"""One canonical output per probe, or ``None`` when the candidate could not be probed."""


def _language(module: Module) -> Language | None:
    return registry.find(module.language)


def _prober(module: Module) -> Prober | None:
    language = _language(module)
    return language.choosing.prober if language is not None else None


def probe_calls(module: Module, tests: Mapping[str, str]) -> list[str]:
    """The probes of ``module`` found in ``tests`` (empty for languages without a prober)."""
    prober = _prober(module)
    return prober.calls(tests, interface_names(module)) if prober else []


def probe(run: RunProgram, module: Module, files: dict[str, str], calls: Sequence[str]) -> Outputs:
    """Run one candidate on every probe; ``None`` if it could not be run or read.

    In a compiled language, calls that do not compile against the candidate (a literal of
    another type than its signature's) are dropped, their output ``!CompileError``, and
    the rest run again once.
    """
    language, prober = _language(module), _prober(module)
    if language is None or prober is None or not calls or not files:
        return None
    stem = language.layout.source_path(module.name).rsplit(".", 1)[0]
    outputs, report = _probe_run(run, prober, files, calls, stem)
    if outputs is None and prober.uncompiled is not None:
        bad = prober.uncompiled(report.stderr + report.stdout, calls)
        kept = [call for i, call in enumerate(calls) if i not in bad]
        if bad and kept:
            some, report = _probe_run(run, prober, files, kept, stem)
            if some is not None:
                got = iter(some)
                return ["!CompileError" if i in bad else next(got) for i in range(len(calls))]
    if outputs is None:
        logger.info("probe: no outputs (exit %s)", report.exit_code)
    return outputs


def _probe_run(
    run: RunProgram, prober: Prober, files: dict[str, str], calls: Sequence[str], stem: str
) -> tuple[Outputs, ProgramRun]:
    program = prober.program(calls, stem)
    command = list(prober.command or (prober.path,))
    budget = PROBE_TIMEOUT_S + CALL_TIMEOUT_S * len(calls)
    report = run({**files, prober.path: program}, command, budget)
    outputs = [
        json.loads(line[len(MARK) :])
        for line in report.stdout.splitlines()
        if line.startswith(MARK)
    ]
    if len(outputs) != len(calls):
        return None, report
    return [str(o) for o in outputs], report


def _example_probe(module: Module) -> ExampleProbe | None:
    language = _language(module)
    return language.choosing.example_probe if language is not None else None


def example_checks(module: Module, examples: Sequence[str]) -> list[tuple[str, object]]:
    """The examples checked by probing: ``(probe call, expected value)``."""
    reader = _example_probe(module)
    return reader.checks(examples, interface_names(module)) if reader else []


def examples_met(
    module: Module,
    outputs: Outputs,
    calls: Sequence[str],
    checks: Sequence[tuple[str, object]],
) -> int:
    """How many ``checks`` a candidate's probe ``outputs`` (on ``calls``) meet."""
    reader = _example_probe(module)
    if reader is None or outputs is None:
        return 0
    return sum(
        call in calls and reader.met(expected, outputs[calls.index(call)])
        for call, expected in checks
    )


def broken_errors(module: Module) -> frozenset[str]:
    """The errors that say a candidate of ``module`` is broken (:attr:`Prober.broken`)."""
    prober = _prober(module)
    return prober.broken if prober is not None else frozenset()


def agreement(outputs: Sequence[Outputs], broken: Collection[str] = ()) -> list[int]:
    """Per candidate: probes on which each other candidate returns the same output. An
    output raising one of the ``broken`` errors, or from a module that did not load
    (``!import ...``), agrees with nothing: sharing a bug is no reading of the task."""
    scores = []
    for i, mine in enumerate(outputs):
        score = 0
        if mine is not None:
            kept = [None if is_broken(a, broken) else a for a in mine]
            for j, theirs in enumerate(outputs):
                if j != i and theirs is not None:
                    score += sum(
                        a is not None and a == b for a, b in zip(kept, theirs, strict=True)
                    )
        scores.append(score)
    return scores
