"""Running: choose among the drafts by execution, or run the current code again.

Every draft is run on the designed tests plus the tests generated from the user's stated
examples, and probed where the language can be (:func:`codeproof.choosing.selection.choose`:
stated examples first, then agreement of outputs, then of test results; tests that
contradict the agreeing drafts are set aside). The same files and tests are never run
twice (:meth:`.Context.run_tests`). Each run is an attempt; the best attempt is kept.
"""

from __future__ import annotations

import logging

from codeproof.choosing.choice import Choice
from codeproof.choosing.examples import is_example_test
from codeproof.choosing.interface import missing_names
from codeproof.choosing.probing import example_checks, examples_met, probe
from codeproof.choosing.recombining import adopt, recombined
from codeproof.choosing.selection import choose
from codeproof.contract.listed import stated_errors
from codeproof.core.types import Module, TestReport
from codeproof.engine.context import Context, digest
from codeproof.engine.state import AttemptRecord, Best, Work

logger = logging.getLogger(__name__)


def execute(ctx: Context, work: Work) -> Work:
    """Choose among pending drafts (or run the current code) and record the attempt."""
    change, changes = work.change, list(work.test_changes)
    update: dict[str, object] = {}
    chosen = work.files is None
    if work.files is None:
        choice = _choose(ctx, work)
        files, tests, report = choice.files, choice.tests, choice.report
        missed = choice.examples_missed
        if not report.loaded:  # no example ran, so none is met (as for a rerun below)
            missed = max(missed, len(work.examples))
        change = choice.note
        changes = [c for c in changes if c != work.choice]  # the tests of this choice
        if choice.quarantined:  # replace the last one's: one line per check set aside
            changes.append(choice.note)
        update = {
            "chosen": choice.index,
            "choice": choice.note,
            "repaired": False,
            "contested": choice.contested,
            "unanimous": choice.unanimous,
            "blind": choice.blind,
        }
    else:
        files, tests = work.files, work.tests
        report = ctx.run_tests(files, tests)
        missed = examples_missed(ctx, work, files, report)
        update = {"contested": False}
    if report.green and ctx.gate is not None:  # inside an existing project: no regression
        report = ctx.gate(files, tests) or report
    state = digest(files, tests)
    stuck = not chosen and not report.green and state in work.seen  # a repair repeated
    record = AttemptRecord(
        attempt=work.attempts_total + 1,
        change=change,
        passed=report.passed,
        total=report.total,
        code_hash=state,
        repaired=not chosen and work.repaired,
    )
    attempt = Best(
        files=files,
        tests=tests,
        report=report,
        examples_missed=missed,
        attempt=work.attempts_total + 1,
    )
    return work.model_copy(
        update={
            **update,
            "files": files,
            "tests": tests,
            "report": report,
            "examples_missed": missed,
            "test_changes": changes,
            "change": change,
            "attempt": work.attempt + 1,
            "attempts_total": work.attempts_total + 1,
            "history": [*work.history, record],
            "seen": [*work.seen, state],
            "stuck": stuck,
            "best": better(work.best, attempt, newer_wins_ties=chosen, module=ctx.module),
            "verdict": "passed" if report.green and missed == 0 else None,
        }
    )


def _choose(ctx: Context, work: Work) -> Choice:
    """The choice among the drafts; where it misses a stated example that another draft's
    function meets, the composite of the drafts' best functions where it does better
    (:mod:`codeproof.choosing.recombining`)."""
    drafts = [d.files for d in work.drafts] or [{}]
    choice = _choose_among(ctx, work, drafts)
    if not choice.examples_missed or len(drafts) < 2:
        return choice
    made = recombined(ctx.module, drafts, choice.reports, choice.tests, choice.index)
    adopted = adopt(ctx.run_tests, ctx.run_program, ctx.module, choice, made)
    if adopted is None:
        return choice
    logger.info("%s: %s", ctx.module.name, adopted.note)
    return adopted


def _choose_among(ctx: Context, work: Work, drafts: list[dict[str, str]]) -> Choice:
    return choose(
        ctx.run_tests,
        drafts,
        work.designed,
        ctx.module,
        work.examples,
        ctx.run_program,
        work.inputs,
        errors=stated_errors(ctx.words),
    )


def examples_missed(ctx: Context, work: Work, files: dict[str, str], report: TestReport) -> int:
    """Stated examples that ``files`` does not meet: failing generated example tests, and
    examples checked by probing (languages whose examples are not test files)."""
    failing = sum(1 for t in report.failures if is_example_test(t.name))
    if not report.loaded:  # nothing ran the code: none is met (a file that fails to
        return max(len(work.examples), failing)  # import is one error, not one per example)
    checks = example_checks(ctx.module, work.examples)
    if not checks:
        return failing
    calls = [call for call, _ in checks]
    outputs = probe(ctx.run_program, ctx.module, files, calls)
    return failing + len(checks) - examples_met(ctx.module, outputs, calls, checks)


def rank(attempt: Best) -> tuple[int, int]:
    """How good an attempt is: fewer stated examples missed, then more tests passed."""
    return (-attempt.examples_missed, attempt.report.passed)


def better(
    best: Best | None, attempt: Best, *, newer_wins_ties: bool, module: Module | None = None
) -> Best:
    """The better of the best attempt so far and ``attempt``. Code that loads beats code
    that does not (py-word-freq: a repair cut short by the token limit did not parse, and
    its 4 test files' import errors counted as fewer missed examples than the 5 failing
    example tests of the code it replaced); where no test loaded, code that compiles
    beats code that does not. Then code defining the top-level names ``module``'s
    interface declares beats code lacking one the other defines (py-inventory-report: a
    draft rewriting ``Inventory`` without the function ``to_csv`` passed as many tests as
    one defining it). Test counts compare only when both ran the
    same tests. A tie goes to a new choice among drafts (made on more evidence), not to a
    repair (one that changes nothing measurable is not adopted)."""
    if best is None:
        return attempt
    loads, loaded = attempt.report.loaded, best.report.loaded
    if loads != loaded:
        return attempt if loads else best
    compiles, compiled = attempt.report.compiled, best.report.compiled
    if compiles != compiled:  # no test loaded for either: code that compiles is kept
        return attempt if compiles else best
    if module is not None:
        lacks = [bool(names) for names in missing_names(module, [best.files, attempt.files])]
        if lacks[0] != lacks[1]:
            return best if lacks[1] else attempt
    if best.tests != attempt.tests:
        if attempt.examples_missed != best.examples_missed:
            return attempt if attempt.examples_missed < best.examples_missed else best
        return attempt
    if rank(attempt) == rank(best):
        return attempt if newer_wins_ties else best
    return attempt if rank(attempt) > rank(best) else best
