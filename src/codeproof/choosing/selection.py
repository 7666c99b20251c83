"""Choose among candidate implementations by execution, and set aside disputed tests.

Small models write wrong tests as often as wrong code, and a repairer chasing a wrong
test breaks correct code. Several independent candidates give evidence about both
(CodeT's *dual execution agreement*): candidates that pass the same set of tests agree
with each other, and a group is trusted in proportion to its size times the number of
tests it passes. A test that fails for every member of the trusted group, and that fewer
candidates pass than agree on that group, contradicts the consensus reading of the task:
it is *quarantined*, cut out of the test file and recorded, instead of being repaired
against. Agreement in missing a check is no such evidence, though: a candidate passing
every test of the group and more is preferred where nothing else tells them apart.

The specification's own acceptance examples are ground truth (the user wrote them): they
become generated tests that are never quarantined, and candidates that pass more of them
are preferred to any agreement among candidates that fail them.

Where the language has a prober (:mod:`codeproof.choosing.probing`), candidates are also
run on the tests' inputs and compared by their *outputs* (MBR-exec): among the candidates
passing the most examples, the one whose outputs agree most with the others wins, before
test counts, which rest on expected values a small model often gets wrong.

Used by the workflow's ``execute`` node and by the evaluation pipeline alike.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from codeproof.choosing.choice import Choice
from codeproof.choosing.consensus import consensus, edit_asserts
from codeproof.choosing.examples import example_tests, interface_names, is_example_test
from codeproof.choosing.interface import missing_names
from codeproof.choosing.ladder import blind, contested, passed_names, unanimous
from codeproof.choosing.mutation import MUTANTS, mutants
from codeproof.choosing.probing import (
    RunProgram,
    agreement,
    broken_errors,
    example_checks,
    examples_met,
    probe,
    probe_calls,
)
from codeproof.choosing.pruning import RunTests, prune_uncompiled
from codeproof.core.types import Module, TestReport
from codeproof.languages import registry
from codeproof.languages.syntax import call_key
from codeproof.languages.test_edit import naming, remove_tests

logger = logging.getLogger(__name__)


MIN_AGREEING = 2
"""Candidates that must agree before a test they all fail is quarantined."""


@dataclass(frozen=True)
class Verdict:
    """What the execution evidence says (pure, see :func:`judge`).

    Attributes:
        index: The chosen candidate.
        agreeing: How many candidates passed exactly the tests it passed.
        disputed: Tests the chosen group fails and fewer candidates pass than agree.
    """

    index: int
    agreeing: int
    disputed: tuple[str, ...] = ()


def judge(
    reports: Sequence[TestReport],
    *,
    protected: frozenset[str] = frozenset(),
    min_agreeing: int = MIN_AGREEING,
    outputs_agree: Sequence[int] = (),
    examples_met: Sequence[int] = (),
    tiebreak: Sequence[int] = (),
    incomplete: Sequence[bool] = (),
    error_checks: frozenset[str] = frozenset(),
    crashed: Sequence[frozenset[str]] = (),
) -> Verdict:
    """Pick a candidate from its test reports (one per candidate, same tests).

    Candidates are grouped by the exact set of tests they pass (only those whose code
    loads, when any does: :attr:`TestReport.loaded`); a group scores
    ``members x tests passed``. The best group wins (ties: more tests passed, then the
    earliest candidate, which is the greedy one), unless another group passes all its
    tests and more, the more being ``error_checks`` (tests of an error the user's words
    state) or tests the other group's code ``crashed`` on (per candidate: the tests it
    fails by an error of its own, not a failed check), while level with it on the
    examples and the outputs (see
    :func:`_dominant`); but a group passing more ``protected``
    tests (the specification's examples), or meeting more ``examples_met`` (examples
    checked by probing, where they are not tests), always wins. ``tiebreak`` (agreement on
    mutated inputs) decides between groups equal on everything else, before the earliest
    candidate, and orders a group's members after the outputs. A candidate ``incomplete``
    (it lacks a top-level name of the interface that another defines:
    :mod:`codeproof.choosing.interface`) is grouped only when no complete one loads. The
    tests it fails are disputed
    when the group has at least ``min_agreeing`` members, passes at least half of the
    tests, fewer candidates pass the test than agree on the group, and the test is not
    protected; and the group is a majority of the candidates that ran, or its outputs
    agree with another candidate's on some probe. java-lru-cache at ``a24819f``: two of
    five drafts passing the same 3 of 6 tests, with no probe output to compare (a Java
    class), set aside the 3 right tests, and the shipped class counted a replacing
    ``put`` in its size, reported passed.
    """
    if not reports:
        raise ValueError("judge needs at least one report")
    groups: dict[frozenset[str], list[int]] = {}
    lacking = list(incomplete) or [False] * len(reports)
    whole = any(r.loaded and not lacking[i] for i, r in enumerate(reports))
    loading = any(report.loaded for report in reports)  # py-bill-split: a draft without
    for i, report in enumerate(reports):  # a stated function was chosen, all passing none
        if (report.loaded and not (whole and lacking[i])) if loading else report.total > 0:
            groups.setdefault(passed_names(report), []).append(i)
    agree = list(outputs_agree) or [0] * len(reports)
    met = list(examples_met) or [0] * len(reports)
    tie = list(tiebreak) or [0] * len(reports)
    if not groups:  # no test ran for anyone: code that compiles, then the outputs decide
        # (ties: the earliest); java-business-calendar: every designed test was set aside
        # and the greedy draft, which did not compile, was kept over three that did
        ok = [report.compiled for report in reports]
        best = max(range(len(reports)), key=lambda i: (ok[i], met[i], agree[i], tie[i], -i))
        return Verdict(index=best, agreeing=1 if len(reports) == 1 else 0)

    for members in groups.values():
        members.sort(key=lambda i: (-met[i], -agree[i], -tie[i]))  # stable: the earliest first

    def score(group: Group) -> tuple[int, ...]:
        passed, members = group
        return (
            len(passed & protected) + met[members[0]],
            agree[members[0]],
            len(members) * len(passed),
            len(passed),
            tie[members[0]],
            -min(members),
        )

    crashes = list(crashed) or [frozenset()] * len(reports)

    def unread(extra: frozenset[str], group: Group) -> bool:
        return extra <= error_checks | crashes[group[1][0]]

    passed, members = _dominant(groups, max(groups.items(), key=score), score, unread)
    chosen = reports[members[0]]
    if len(members) < min_agreeing or 2 * len(passed) < chosen.total - chosen.skipped:
        return Verdict(index=members[0], agreeing=len(members))
    grouped = sum(len(ids) for ids in groups.values())
    if agree[members[0]] == 0 and 2 * len(members) <= grouped:
        return Verdict(index=members[0], agreeing=len(members))  # too few to outvote a test
    passers = [name for group, ids in groups.items() for name in group for _ in ids]
    disputed = tuple(
        t.name
        for t in chosen.failures
        if passers.count(t.name) < len(members) and t.name not in protected
    )
    return Verdict(index=members[0], agreeing=len(members), disputed=disputed)


Group = tuple[frozenset[str], list[int]]


def _dominant(
    groups: dict[frozenset[str], list[int]],
    best: Group,
    score: Callable[[Group], tuple[int, ...]],
    unread: Callable[[frozenset[str], Group], bool],
) -> Group:
    """``best``, or a group passing every test it passes and more, where the two are
    level on the stated examples and on output agreement and ``best`` gives no reading
    of the more (``unread``: each is a test of a stated error, or one its code crashed
    on): agreement among drafts that all leave out a stated check ("throws a RangeError
    if the capacity is not a positive integer"), or that share a crash, is no evidence
    against the draft that passes it and everything they pass. Agreement on a value
    is: java-lru-cache at ``84f9536``, six drafts (the one
    call's answer, 9/9 acceptance checks, among them) gave size 2 at capacity 2 where a
    designed test expected 3, and the seventh, whose size grows past the capacity,
    passed that test too and was chosen (5/9). Where probes reach the code, a draft
    passing another test also answers its inputs otherwise, and agreement decides."""
    while True:
        level = score(best)[:2]
        wider = [
            g
            for g in groups.items()
            if g[0] > best[0] and unread(g[0] - best[0], best) and score(g)[:2] == level
        ]
        if not wider:
            return best
        better = max(wider, key=score)
        logger.info(
            "candidate %d passes the %d test(s) of the agreeing candidates %s and %d more",
            better[1][0], len(best[0]), best[1], len(better[0] - best[0]),
        )  # fmt: skip
        best = better


def choose(
    run: RunTests,
    candidates: Sequence[dict[str, str]],
    tests: dict[str, str],
    module: Module,
    examples: Sequence[str] = (),
    run_program: RunProgram | None = None,
    inputs: Sequence[str] = (),
    mutated: int = MUTANTS,
    errors: Collection[str] = (),
) -> Choice:
    """Run the tests on every candidate, choose one, quarantine the disputed tests.

    The ``examples`` (the specification's acceptance examples) that call the module's
    interface are added as generated tests (:mod:`codeproof.choosing.examples`),
    which are protected. A candidate without files is not run (its report is empty).
    With ``run_program`` and several candidates, they are also probed on the tests' inputs
    and compared by their outputs (:mod:`codeproof.choosing.probing`); in a language
    whose examples do not become tests (Java), the examples are probed and a candidate
    meeting more of them wins as if it passed more example tests. ``inputs`` (lines from
    :func:`codeproof.agents.input_designer.propose_inputs`) add the calls among them that
    the language's prober accepts as probes: they weigh in the agreement only, having no
    expected value. Up to ``mutated`` mutations of the probe calls are probed in a run of
    their own, and their agreement breaks ties (:mod:`codeproof.choosing.mutation`).
    ``errors`` (the error classes the user's words state) may be the agreed outcome of a
    call, against which a check expecting a value is set aside
    (:func:`~codeproof.choosing.consensus.consensus`).
    After a quarantine the chosen candidate is run again on the remaining tests; should
    that run be worse than before (the edit broke the test file), the tests are kept.
    """
    language = module.language
    generated = example_tests(module, examples)
    tests = {**tests, **generated}
    reports = [run(files, tests) if files and tests else TestReport() for files in candidates]
    tests, reports, uncompiled = prune_uncompiled(run, language, candidates, tests, reports)
    protected = frozenset(t.name for r in reports for t in r.tests if is_example_test(t.name))
    several = run_program is not None and len(candidates) > 1
    checks = example_checks(module, examples) if run_program is not None else []
    calls = [*probe_calls(module, tests)] if several else []
    calls = list(dict.fromkeys([*calls, *(c for c, _ in checks)]))
    lines = {str(i): line for i, line in enumerate(inputs)}
    proposed = [c for c in probe_calls(module, lines) if c not in calls] if several else []
    calls = list(dict.fromkeys([*calls, *proposed]))
    outputs = [probe(run_program, module, f, calls) for f in candidates] if run_program else []
    broken = broken_errors(module)
    agree = agreement(outputs, broken) if several and calls else []
    met = [examples_met(module, o, calls, checks) for o in outputs] if checks else []
    extra = mutants(language, calls, mutated) if several else []
    tie = _agreement_on(run_program, module, candidates, extra)
    missing = missing_names(module, candidates)
    found = registry.language_for(language)
    names = {t.name for report in reports for t in report.tests}
    verdict = judge(
        reports,
        protected=protected,
        outputs_agree=agree,
        examples_met=met,
        tiebreak=tie,
        incomplete=[bool(m) for m in missing],
        error_checks=naming(language, tests, names, errors),
        crashed=[crashes(report, found.editing.assertion) for report in reports],
    )
    files = dict(candidates[verdict.index]) if candidates else {}
    report = reports[verdict.index] if reports else TestReport()
    choice = Choice(verdict.index, files, tests, report, verdict.agreeing, reports=reports)
    choice.quarantined = uncompiled
    choice.lacking = {i: names for i, names in enumerate(missing) if names}
    choice.output_agreement, choice.probes = agree, len(calls)
    choice.calls, choice.outputs = calls, outputs
    choice.proposed = len(set(proposed))
    choice.examples_met, choice.example_checks = met, len(checks)
    choice.mutant_agreement, choice.mutants = tie, len(extra)
    choice.contested = contested(reports, outputs, verdict.index) if several and calls else False
    choice.unanimous = unanimous(reports, outputs, broken) if several and calls else False
    choice.blind = blind(reports, agree, tie, checks) and report.compiled
    users = [*generated, *_worked(found.layout.worked_test_path, module, tests)]
    misfit_edit = found.misfit_edit
    if not report.green and misfit_edit is not None:
        edited, notes = misfit_edit(
            choice.tests, candidates, interface_names(module), module.public_interface, users
        )
        if notes:
            _retest(run, choice, edited, notes)
    if several and calls and not choice.report.green:
        sources = [json.dumps(sorted(f.items())) for f in candidates]
        agreed = consensus(outputs, verdict.index, calls, sources, errors)
        user_tests = {p: tests[p] for p in users if p in tests}
        stated = _stated_calls(found.name, module, user_tests, checks)
        agreed = {
            call: out for call, out in agreed.items() if call_key(found.name, call) not in stated
        }
        edited, aside = edit_asserts(language, choice.tests, agreed, users)
        if aside:
            _retest(run, choice, edited, [d.note for d in aside])
    disputed = [n for n in verdict.disputed if n not in passed_names(choice.report)]
    if disputed:
        reported = [t.name for t in choice.report.tests]
        kept, removed = remove_tests(language, choice.tests, disputed, reported)
        if removed:
            _retest(run, choice, kept, removed)
    return choice


def crashes(report: TestReport, assertion: Callable[[str], bool]) -> frozenset[str]:
    """The tests ``report`` fails by an error the code raised (an erring test, or a
    failure ``assertion`` does not read as a failed check): a crash, no reading."""
    failing = report.failures
    return frozenset(t.name for t in failing if t.outcome == "error" or not assertion(t.message))


def _stated_calls(
    language: str,
    module: Module,
    user_tests: dict[str, str],
    checks: Sequence[tuple[str, object]],
) -> set[str]:
    """The calls the user's own examples make: what they return is the user's word, never
    the drafts' agreement (py-durations at ``68dd645``: three drafts raising ValueError
    for ``parse_duration('1h30m')`` set aside the designed check restating the request's
    ``parse_duration("1h30m") -> 5400``), each as its :func:`call_key`: js-slugify's
    designed ``slugify('Hello, World!')`` is the user's ``slugify("Hello, World!")``."""
    calls = [*probe_calls(module, user_tests), *(call for call, _ in checks)]
    return {call_key(language, call) for call in calls}


def _worked(
    path_of: Callable[[str], str] | None, module: Module, tests: dict[str, str]
) -> list[str]:
    """The test file of the user's worked examples among ``tests``: the user's word, like
    the stated examples' files, so the drafts' agreement never edits its assertions
    (py-word-freq: the agreeing drafts' ``[('don', 2)]`` replaced the user's
    ``word_frequencies("Don't stop, DON'T!", top=1) == [("don't", 2)]`` there)."""
    path = path_of(module.name) if path_of is not None else None
    return [path] if path is not None and path in tests else []


def _agreement_on(
    run_program: RunProgram | None,
    module: Module,
    candidates: Sequence[dict[str, str]],
    calls: Sequence[str],
) -> list[int]:
    """Agreement of the candidates' outputs on ``calls``, probed in a run of their own."""
    if run_program is None or not calls:
        return []
    outputs = [probe(run_program, module, files, calls) for files in candidates]
    return agreement(outputs, broken_errors(module))


def _retest(run: RunTests, choice: Choice, tests: dict[str, str], removed: list[str]) -> None:
    """Run the chosen code on ``tests`` (fewer checks); keep them unless the run got worse
    (the edit broke the test file)."""
    again = run(choice.files, tests)
    if again.passed < choice.report.passed or again.total == 0:
        logger.warning("setting aside %s broke the tests; keeping them", removed)
        return
    logger.info("set aside %d disputed check(s): %s", len(removed), ", ".join(removed))
    choice.tests, choice.report = tests, again
    choice.quarantined = [*choice.quarantined, *removed]
