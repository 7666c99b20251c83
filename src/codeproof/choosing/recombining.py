"""A candidate made of the drafts' best functions, where no draft meets every example.

py-durations at ``68dd645``: seven drafts, none meeting all six stated examples. The
chosen one met the three of ``parse_duration`` and missed one of ``format_duration``;
another met the three of ``format_duration`` and none of ``parse_duration``. The chosen
draft with the other's ``format_duration`` meets all six (and 10 of the 14 hidden
acceptance checks, against 8 shipped).

Each stated example test that calls exactly one of the module's functions is an example
of that function. Where another candidate meets more of a function's examples than the
chosen one, the chosen candidate takes that candidate's function (the language's
``splice``: with the helpers it uses). No model call. A composite is no draft: it
shares its code with the drafts it is made of, so it never votes (no agreement, no
setting tests aside); :func:`adopt` ships the best composite instead of the chosen
candidate only where it misses fewer stated examples on the tests the choice kept (or as
few, passing more of them), ranking composites by the agreement of their outputs with
the drafts'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from codeproof.choosing.choice import Choice
from codeproof.choosing.examples import is_example_test
from codeproof.choosing.interface import top_level_names
from codeproof.choosing.probing import RunProgram, agreement, broken_errors, probe
from codeproof.choosing.pruning import RunTests
from codeproof.core.types import Module, TestReport
from codeproof.languages import registry
from codeproof.languages.layout import Layout

MAX_COMPOSITES = 4
"""Most composites made at one choice (each is one more sandbox run)."""

Composite = tuple[dict[str, str], dict[str, int]]
"""A composite's files, and which candidate gave each function taken."""


def recombined(
    module: Module,
    candidates: Sequence[dict[str, str]],
    reports: Sequence[TestReport],
    tests: dict[str, str],
    chosen: int,
) -> list[Composite]:
    """Composites of the chosen candidate: each function whose stated examples another
    candidate meets more of is taken from one meeting most. The first composite takes
    each from the earliest such candidate; where several meet as many, one more
    composite per other candidate (up to :data:`MAX_COMPOSITES` in all) takes that
    function from it, since only execution can tell them apart. Empty where nothing is
    taken or the language cannot splice; never a copy of a candidate."""
    found = registry.find(module.language)
    if found is None or not 0 <= chosen < len(candidates) or len(reports) != len(candidates):
        return []
    splice, calls_by_test = found.choosing.splice, found.choosing.calls_by_test
    if splice is None or calls_by_test is None:
        return []
    layout = found.layout
    names = top_level_names(candidates[chosen], module.language)
    donors: dict[str, list[int]] = {}
    for function, examples in _examples_by_function(calls_by_test(tests, names)).items():
        met = [_met(report, examples) for report in reports]
        most = max(met)
        if most > met[chosen]:
            donors[function] = [i for i, m in enumerate(met) if m == most]

    def compose(picks: dict[str, int]) -> Composite | None:
        files, taken = dict(candidates[chosen]), {}
        for function, donor in picks.items():
            donated = _sources(layout, candidates[donor])
            spliced = splice(_sources(layout, files), donated, function)
            if spliced is not None:
                files, taken[function] = {**files, **spliced}, donor
        return (files, taken) if taken else None

    first = {function: ids[0] for function, ids in donors.items()}
    wanted = [first] + [
        {**first, function: donor} for function, ids in donors.items() for donor in ids[1:]
    ]
    made: list[Composite] = []
    for picks in wanted:
        composite = compose(picks)
        if composite is None or composite[0] in candidates:
            continue
        if all(composite[0] != files for files, _ in made):
            made.append(composite)
        if len(made) == MAX_COMPOSITES:
            break
    return made


def _examples_by_function(calls: dict[str, frozenset[str]]) -> dict[str, set[str]]:
    owned: dict[str, set[str]] = {}
    for test, called in calls.items():
        if len(called) == 1 and is_example_test(test):
            owned.setdefault(next(iter(called)), set()).add(test)
    return owned


def _met(report: TestReport, examples: set[str]) -> int:
    """How many cases of ``examples`` pass in ``report`` (a parametrized case counts as
    its test: ``t[IIII]`` is a case of ``t``)."""
    if not report.loaded:
        return 0
    return sum(
        1 for t in report.tests if t.outcome == "passed" and t.name.split("[", 1)[0] in examples
    )


def _sources(layout: Layout, files: dict[str, str]) -> dict[str, str]:
    """The source files of ``files`` (no tests)."""
    return {p: text for p, text in files.items() if layout.owns(p) and not layout.is_test_path(p)}


def adopt(
    run: RunTests,
    run_program: RunProgram | None,
    module: Module,
    choice: Choice,
    composites: Sequence[Composite],
) -> Choice | None:
    """``choice`` with the best composite's files and report, where it misses fewer stated
    examples on ``choice``'s tests (or as few, passing more tests); None otherwise. The
    composites rank by stated examples missed, tests passed, then the agreement of their
    outputs with the candidates' on the choice's probes."""
    calls, drafts = choice.calls, choice.outputs
    ranked = []
    for k, (files, taken) in enumerate(composites):
        report = run(files, choice.tests)
        if not report.loaded:
            continue
        alt = replace(choice, files=dict(files), report=report, combined=taken)
        outputs = probe(run_program, module, files, calls) if run_program and calls else None
        found = [*drafts, outputs]
        agree = agreement(found, broken_errors(module))[-1] if outputs is not None else 0
        score = (-alt.examples_missed, report.passed, agree, -k)
        ranked.append((score, alt))
    if not ranked:
        return None
    score, best = max(ranked, key=lambda pair: pair[0])
    now = (-choice.examples_missed, choice.report.passed)
    return best if score[:2] > now else None
