"""Mutated probe inputs: more inputs on which to tell tied candidates apart.

Candidates that return the same outputs on every input of the tests and the input
designer are indistinguishable to the choice, which then falls back to the first (greedy)
candidate. Yet they often differ just beside those inputs: a day past the end of a
month, one element more, a negative number. Type-aware mutation (as in EvalPlus) makes
such inputs without a model: each literal argument of a probe call is changed a little
(a number by one, a string by one character, a list by one element) and the call is
probed again.

A mutated input may break the task's preconditions (a negative count where the task
promises a positive one), where candidates may rightly differ. So mutated inputs only
break ties (:func:`codeproof.choosing.selection.judge`), and they are probed in a run of
their own, which cannot cost a candidate its outputs on the real inputs.

Python calls are mutated through their AST, JavaScript calls whose arguments are
JSON-like literals through JSON, and Java calls token by token (a mutated Java call that
does not compile against a candidate is dropped for it, like any probe call).
"""

from __future__ import annotations

from collections.abc import Sequence

from codeproof.languages import registry
from codeproof.languages.mutate import seeded_rng

MUTANTS = 24
"""Mutated calls per module (taken in turn from each probe call)."""

MAX_CALL = 300
"""Mutated calls longer than this (characters) are not used."""


def mutants(language: str, calls: Sequence[str], limit: int = MUTANTS) -> list[str]:
    """Up to ``limit`` new calls, taken in turn from each call's shuffled mutants."""
    found = registry.find(language)
    mutate = found.choosing.mutate_call if found is not None else None
    if mutate is None or limit <= 0:
        return []
    seen = set(calls)
    pools = []
    for call in calls:
        pool = [m for m in dict.fromkeys(mutate(call)) if len(m) <= MAX_CALL]
        seeded_rng(call).shuffle(pool)
        pools.append(pool)
    out: list[str] = []
    for turn in range(max((len(p) for p in pools), default=0)):
        for pool in pools:
            if turn < len(pool) and pool[turn] not in seen and len(out) < limit:
                seen.add(pool[turn])
                out.append(pool[turn])
    return out
