"""The proof: how strong the evidence for the module's final code is, made stronger.

Run at the end of a module (after :func:`.loop.settle`), by the workflow's ``prove``
node and by :func:`.loop.build` alike:

1. **evidence**: green code built from fewer than ``options.proof_drafts`` drafts gets
   one more rung of drafts (and the input designer's edge-case inputs): the drafts'
   agreement is the only source of expected values besides the user;
2. **questions**: inputs (from the tests, the stated examples and the input designer)
   on which the distinct drafts return different results become questions, at most
   ``options.questions`` per module, most informative first
   (:func:`codeproof.proof.questions.questions`). A person answers them in an
   interactive run; ``--yes`` and the evaluation take the default (what most drafts
   return) and record it as an assumption. Each answer becomes a stated example of the
   module (never set aside); one that the chosen code does not give sends the module
   back to the choice among its drafts;
3. **mutation analysis** of the chosen code against its kept tests, time-boxed
   (:mod:`.mutating`);
4. **checks that kill survivors**: where a surviving mutant returns something else than
   the chosen code and the drafts agree on the chosen code's output (never at a stated
   example's input: the user's word is its expected value), a generated check of that
   output is added (:func:`codeproof.proof.checks.cover`), verified on the code
   and on the survivors;
5. **grade**: the proof's strength and the module's honest status
   (:mod:`codeproof.proof.strength`).
"""

from __future__ import annotations

import logging
import time

from codeproof.choosing.mutation import mutants as mutated_calls
from codeproof.choosing.probing import (
    Outputs,
    broken_errors,
    example_checks,
    probe,
    probe_calls,
)
from codeproof.core.proof import DisputedCheck, Proof, ProofCheck, ProofQuestion
from codeproof.core.reports import ModuleStatus
from codeproof.core.types import TestReport
from codeproof.engine import disputes
from codeproof.engine.context import Context
from codeproof.engine.drafting import draw
from codeproof.engine.judging import read_defaults
from codeproof.engine.mutating import Analysis, analyse
from codeproof.engine.state import Work
from codeproof.languages.values import split_example
from codeproof.proof import questions as asking
from codeproof.proof.checks import count_checks, cover
from codeproof.proof.strength import assumed, grade, status

logger = logging.getLogger(__name__)


def status_of(work: Work) -> ModuleStatus:
    """The module's honest status: passed only on a moderately strong proof; weak, not
    failed, when no test was left to fail (:func:`untested`)."""
    return status(work.verdict, work.proof, untested=untested(work))


def untested(work: Work) -> bool:
    """Code that compiles, meets every stated example, and has no test left to run:
    every designed test was set aside (the java-lru-cache request's class was right and
    reported "failed 0/0")."""
    report = work.report
    return bool(work.files) and report is not None and report.untested and not work.examples_missed


def prove(ctx: Context, work: Work) -> Work:
    """Measure (and strengthen) the proof of ``work``'s final code; pose questions."""
    started = time.monotonic()
    files, tests = work.files or {}, dict(work.tests)
    if not ctx.options.proof:
        return _done(ctx, work, grade(None, 0, "the proof is turned off"), started)
    report = ctx.run_tests(files, tests) if files and tests else None
    if report is None or report.total == 0:
        why = "no test ran on the code" if files else "there is no code"
        return _done(ctx, work, grade(None, 0, why), started)
    green = work.verdict == "passed"
    if green:
        work = _evidence(ctx, work)
    calls, valid = _calls(ctx, work)
    extra = disputes.vanished(ctx, work) if green else []  # probed only, never mutated
    chosen = probe(ctx.run_program, ctx.module, files, [*calls, *extra]) if calls or extra else None
    if chosen is None:
        calls, valid, chosen, extra = [], 0, [], []
    chosen, at_extra = chosen[: len(calls)], chosen[len(calls) :]
    kept = [k for k, out in enumerate(chosen) if out != "!CompileError"]
    calls, chosen = [calls[k] for k in kept], [chosen[k] for k in kept]
    valid = sum(1 for k in kept if k < valid)
    both = _others(ctx, work, [*calls, *extra], report)
    others = [o[: len(calls)] if o is not None else None for o in both]
    at_others = [o[len(calls) :] if o is not None else None for o in both]
    disputed = disputes.contradicted(ctx, work, extra, at_extra, at_others)
    pending = (
        _questions(ctx, work, calls[:valid], chosen[:valid], others, disputed) if green else []
    )
    analysis = analyse(ctx, files, tests, report, calls, killed_before=frozenset(work.killed))
    agreed = _expected(chosen, others, valid, broken_errors(ctx.module))
    expected = _unstated(ctx, work, calls, agreed)
    forced = _answered(ctx, work, calls, chosen)
    expected.update(forced)
    probes = (calls, valid, sorted(forced))
    added, checks, report = _strengthen(ctx, work, analysis, probes, expected, report)
    tests = {**tests, **checks}
    total, distinct = count_checks(ctx.module.language, tests)
    proof = grade(analysis.mutation, distinct, _unmeasured(ctx, analysis)).model_copy(
        update={
            "checks": total,
            "distinct_checks": distinct,
            "added": added,
            "files": sorted(checks),
            "drafts": 1 + sum(o is not None for o in others),
            "drawn": len({_key(d.files) for d in work.drafts if d.files} | {_key(files)}),
        }
    )
    work = work.model_copy(
        update={
            "tests": tests,
            "report": report,
            "pending": pending,
            "killed": sorted(set(work.killed) | set(analysis.killed)),
        }
    )
    return _done(ctx, work, proof, started)


def _unmeasured(ctx: Context, analysis: Analysis) -> str:
    """Why no mutant behaviour ran against the tests, in words."""
    mutation = analysis.mutation
    if ctx.language.proving.mutants is None:
        return f"no code mutants for {ctx.language.name}: the tests' strength is not measured"
    if not mutation.generated:
        return "no code mutant could be made of the code"
    if mutation.probed and not mutation.behaviours:
        return f"all {mutation.probed} mutants run look equivalent or do not compile"
    return "the time box ended before any mutant behaviour ran against the tests"


def _done(ctx: Context, work: Work, proof: Proof, started: float) -> Work:
    earlier = work.proof.questions if work.proof else []
    proof = proof.model_copy(update={"questions": earlier})
    if (weakness := assumed(proof)) is not None:
        proof.weaknesses = [*proof.weaknesses, weakness]
    proof = proof.model_copy(
        update={
            "set_aside": list(work.test_changes),
            "seconds": round(time.monotonic() - started, 2),
        }
    )
    logger.info("%s: proof %s (%s)", ctx.module.name, proof.strength, "; ".join(proof.weaknesses))
    return work.model_copy(update={"proof": proof, "reprove": False})


def _evidence(ctx: Context, work: Work) -> Work:
    """One more rung of drafts when too few were written to compare outputs."""
    options = ctx.options
    room = len(work.drafts) < min(options.proof_drafts, options.max_drafts)
    if not room or ctx.language.choosing.prober is None:
        return work
    drawn = draw(ctx, work)
    return drawn.model_copy(update={"files": work.files})


def _calls(ctx: Context, work: Work) -> tuple[list[str], int]:
    """The probe calls (from the tests, the stated examples and the input designer),
    then mutated ones; and how many come before the mutated ones."""
    module = ctx.module
    found = probe_calls(module, work.tests)
    found += [call for call, _ in example_checks(module, work.examples)]
    found += probe_calls(module, {str(i): line for i, line in enumerate(work.inputs)})
    valid = list(dict.fromkeys(found))
    return [*valid, *mutated_calls(module.language, valid)], len(valid)


def _others(ctx: Context, work: Work, calls: list[str], report: TestReport) -> list[Outputs]:
    """The outputs of every distinct *peer* draft: one that passes every kept test the
    chosen code passes (a draft that crashes on them is broken, not another reading)."""
    if not calls:
        return []
    passing = {t.name for t in report.tests if t.outcome == "passed"}
    seen = {_key(work.files or {})}
    out: list[Outputs] = []
    for draft in work.drafts:
        key = _key(draft.files)
        if not draft.files or key in seen:
            continue
        seen.add(key)
        run = ctx.run_tests(draft.files, work.tests)
        if passing <= {t.name for t in run.tests if t.outcome == "passed"}:
            out.append(probe(ctx.run_program, ctx.module, draft.files, calls))
    return out


def _key(files: dict[str, str]) -> str:
    return "\0".join(f"{p}\0{c.strip()}" for p, c in sorted(files.items()))


def _questions(
    ctx: Context,
    work: Work,
    calls: list[str],
    chosen: list[str],
    others: list[Outputs],
    disputed: tuple[list[DisputedCheck], list[str], list[Outputs]],
) -> list[ProofQuestion]:
    """The questions of the proof, at most ``options.questions`` per module: the inputs the
    drafts split on take the room first, the designed checks the final code contradicts
    (:mod:`.disputes`) what is left. A split is the more telling question: replayed on
    the 24 in-words tasks of session 33, the reference solution sided with the code on
    57 of 64 contradicted checks and with the test on 2 (5: neither); of three green
    modules whose answers were assumed, two were wrong. The checks are asked first,
    though (their default answers change nothing: ``--yes`` must reach the splits'
    answers last, which prove again), and the judge never reads them (in session 33 it
    kept three set-aside checks, all three wrong)."""
    asked = {q.call for q in work.proof.questions} if work.proof else set()
    room = ctx.options.questions - len(work.answers)
    cut = [o[: len(calls)] if o is not None else None for o in others]
    backed = probe_calls(ctx.module, work.tests)  # the code is green: every kept test passes
    broken = broken_errors(ctx.module)
    posed = asking.questions(
        calls, chosen, cut, asked=asked, backed=backed, limit=room, broken=broken
    )
    checks, at_checks, others_at = disputed
    asked |= {q.call for q in posed}
    left = room - len(posed)
    first = asking.disputed(checks, at_checks, others_at, asked=asked, limit=left)
    return [*first, *read_defaults(ctx, work, posed)]


def _expected(
    chosen: list[str], others: list[Outputs], valid: int, broken: frozenset[str]
) -> dict[int, str]:
    """Input -> the agreed output: most drafts on the tests' and the specification's
    inputs, every draft (three at least) on the mutated ones; never a ``broken`` error."""
    agreed = asking.agreed(chosen, others, errors=True, broken=broken)
    voters = 1 + sum(o is not None for o in others)
    unanimous = {
        k: v
        for k, v in agreed.items()
        if k >= valid and voters >= 3 and all(o is None or o[k] == v for o in others)
    }
    return {**{k: v for k, v in agreed.items() if k < valid}, **unanimous}


def _unstated(
    ctx: Context, work: Work, calls: list[str], expected: dict[int, str]
) -> dict[int, str]:
    """``expected`` without the inputs of the stated examples: the user's word is their
    expected value, and their example tests already hold it. The drafts' agreement there
    may contradict it (py-durations: every peer draft raised ValueError for
    ``parse_duration('1h30m')``, stated as 5400, and that became a check of the proof)."""
    written = [split[0] for example in work.examples if (split := split_example(example))]
    stated = {
        *probe_calls(ctx.module, {str(i): call for i, call in enumerate(written)}),
        *(call for call, _ in example_checks(ctx.module, work.examples)),
    }
    return {k: v for k, v in expected.items() if calls[k] not in stated}


def _answered(ctx: Context, work: Work, calls: list[str], chosen: list[str]) -> dict[int, str]:
    """Answers the chosen code gives, where stated examples do not become test files
    (they are checked by probing while choosing): they become checks of the proof."""
    if ctx.language.choosing.example_tests is not None or work.proof is None:
        return {}
    out = {}
    for question in work.proof.questions:
        k = calls.index(question.call) if question.call in calls else -1
        if k >= 0 and question.answer == chosen[k]:
            out[k] = chosen[k]
    return out


def _strengthen(
    ctx: Context,
    work: Work,
    analysis: Analysis,
    probes: tuple[list[str], int, list[int]],
    expected: dict[int, str],
    report: TestReport,
) -> tuple[list[ProofCheck], dict[str, str], TestReport]:
    """Generated checks that tell surviving mutants apart from the chosen code, kept
    only if the code passes them; each survivor they tell apart counts as killed.

    ``probes``: the probe calls, how many come before the mutated ones, and the inputs
    whose answers must be checked (answers the example tests do not hold)."""
    make = ctx.language.proving.checks
    calls, valid, forced = probes
    survivors = [b for b in analysis.grouping.behaviours if b.killed is False]
    plan = cover([b.differs for b in survivors], expected, calls, valid)
    covered = {k for k, _ in plan}
    plan += [
        (k, [i for i, b in enumerate(survivors) if k in b.differs])
        for k in forced
        if k not in covered
    ]
    if make is None or not plan:
        return [], {}, report
    files, tests = work.files or {}, work.tests
    checks = make(ctx.module, [(calls[k], expected[k]) for k, _ in plan])
    if not checks:
        return [], {}, report
    again = ctx.run_tests(files, {**tests, **checks})
    failing = again.failed + again.errors > report.failed + report.errors
    if failing or again.total <= report.total:
        logger.warning("%s: the proof's checks do not pass on the code", ctx.module.name)
        return [], {}, report
    added = []
    for k, targets in plan:
        kills = []
        for behaviour in (survivors[i] for i in targets):
            first = behaviour.mutants[0]
            if not behaviour.killed_by_checks:
                run = ctx.run_tests(analysis.files(files, first), checks)
                behaviour.killed_by_checks = run.total == 0 or run.passed < run.total
            if behaviour.killed_by_checks:
                kills.append(analysis.mutants[first][1].label)
        origin = "answer" if k in forced else "agreement"
        added.append(ProofCheck(call=calls[k], expected=expected[k], origin=origin, kills=kills))
    mutation = analysis.mutation
    mutation.killed_by_checks = sum(b.killed_by_checks for b in survivors)
    mutation.survivors = [
        analysis.mutants[b.mutants[0]][1].label for b in survivors if not b.killed_by_checks
    ]
    return added, checks, again
