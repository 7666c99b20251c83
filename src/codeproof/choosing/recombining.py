"""A candidate made of the drafts' best functions, where no draft meets every example.

py-durations at ``68dd645``: seven drafts, none meeting all six stated examples. The
chosen one met the three of ``parse_duration`` and missed one of ``format_duration``;
another met the three of ``format_duration`` and none of ``parse_duration``. The chosen
draft with the other's ``format_duration`` meets all six (and 10 of the 14 hidden
acceptance checks, against 8 shipped).

Each stated example test that calls exactly one of the module's functions is an example
of that function. Where another candidate meets more of a function's examples than the
chosen one, the chosen candidate takes that candidate's function (the language's
``splice``: with the helpers it uses). No model call: the composite is one more
candidate, and the choice by execution decides whether it is kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from codeproof.choosing.examples import is_example_test
from codeproof.choosing.interface import top_level_names
from codeproof.core.types import Module, TestReport
from codeproof.languages import registry
from codeproof.languages.layout import Layout


def recombined(
    module: Module,
    candidates: Sequence[dict[str, str]],
    reports: Sequence[TestReport],
    tests: dict[str, str],
    chosen: int,
) -> tuple[dict[str, str], dict[str, int]] | None:
    """The chosen candidate with each function whose stated examples another candidate
    meets more of taken from the one meeting most (the earliest of equals), and which
    candidate gave each function; None where no function is taken or the language cannot
    splice."""
    found = registry.find(module.language)
    if found is None or not 0 <= chosen < len(candidates) or len(reports) != len(candidates):
        return None
    splice, calls_by_test = found.choosing.splice, found.choosing.calls_by_test
    if splice is None or calls_by_test is None:
        return None
    base = candidates[chosen]
    names = top_level_names(base, module.language)
    owned = _examples_by_function(calls_by_test(tests, names))
    composite, taken = dict(base), {}
    for function, examples in owned.items():
        met = [_met(report, examples) for report in reports]
        donor = max(range(len(candidates)), key=lambda i: (met[i], -i))
        if met[donor] <= met[chosen]:
            continue
        donated = _sources(found.layout, candidates[donor])
        spliced = splice(_sources(found.layout, composite), donated, function)
        if spliced is not None:
            composite, taken[function] = {**composite, **spliced}, donor
    if not taken or composite in candidates:
        return None
    return composite, taken


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
