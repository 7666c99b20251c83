"""Which checks the proof adds, and how many distinct checks the tests hold.

A surviving mutant that returns something else than the chosen code on some probe input
is a fault the tests would miss. A check on that input tells them apart; its expected
value is the chosen code's output only where the drafts agree on it (or a question's
answer), never the mutant's. Checks are chosen greedily: each new one must tell apart a
survivor no earlier one does (a check repeating others adds nothing), inputs from the
tests and the specification before mutated ones, shorter calls first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from codeproof.languages.syntax import find_grammar, parse

MAX_ADDED = 10
"""Checks the proof adds to a module at most."""


def cover(
    survivors: Sequence[Sequence[int]],
    expected: Mapping[int, str],
    calls: Sequence[str],
    preferred: int,
    limit: int = MAX_ADDED,
) -> list[tuple[int, list[int]]]:
    """``(input index, survivors it tells apart)`` for each check to add, greedily.

    Args:
        survivors: Per surviving behaviour, the inputs on which it differs from the code.
        expected: Input index -> the agreed output (inputs without one cannot be checked).
        calls: The probe calls (to prefer shorter ones).
        preferred: Inputs below this index come from the tests and the specification;
            the others are mutated inputs (used only when no such input will do).
        limit: Checks at most.
    """
    left = {i: {k for k in differs if k in expected} for i, differs in enumerate(survivors)}
    left = {i: ks for i, ks in left.items() if ks}
    out: list[tuple[int, list[int]]] = []
    while left and len(out) < limit:
        counts: dict[int, list[int]] = {}
        for i, ks in left.items():
            for k in ks:
                counts.setdefault(k, []).append(i)
        best = max(counts, key=lambda k: (len(counts[k]), k < preferred, -len(calls[k]), -k))
        out.append((best, sorted(counts[best])))
        for i in counts[best]:
            del left[i]
    return out


def count_checks(language: str, tests: Mapping[str, str]) -> tuple[int, int]:
    """``(checks, distinct checks)`` in the test files: assertions read with the syntax
    facade, the same text (blanks aside) counted once; without a grammar, none."""
    if find_grammar(language) is None:
        return 0, 0
    texts = [
        " ".join(check.node.text.split())
        for source in tests.values()
        for check in parse(language, source).assertions()
    ]
    return len(texts), len(set(texts))
