"""Checks the drafts' agreement contradicts, kept where the user's words read them.

The drafts' agreement sets aside right checks too: of the 1,102 checks set aside in the
stored HumanEval runs whose expected value could be run against the reference solution,
159 expect what it returns (``is_bored('I am bored. I am not bored. I am bored!') ==
3``, set aside because the agreeing drafts return 1, left HumanEval/91 in words green
and wrong). Before a contradicted check is set aside, the judge
(:func:`codeproof.engine.judging.reader`) reads the user's words on its call, the
drafts' answer and the check's offered; a check whose value they read in both orders is
kept, and so is the test holding it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence

from codeproof.choosing.consensus import contested_asserts
from codeproof.languages.test_edit import remove_tests
from codeproof.languages.values import Disputed

logger = logging.getLogger(__name__)

READ = 3
"""Calls whose contradicted checks the user's words are read on at most, per choice."""

Reader = Callable[[str, Sequence[str]], int | None]
"""``(call, answers) -> the index of the answer the user's words read`` (in two orders),
or ``None``: :func:`codeproof.engine.judging.reader`."""


def read_checks(
    language: str,
    tests: dict[str, str],
    agreed: dict[str, str],
    users: Collection[str],
    read: Reader,
) -> list[Disputed]:
    """The checks contradicting ``agreed`` whose expected value the user's words read,
    on the first :data:`READ` calls (the ``users``' own files are never edited anyway)."""
    disputed = contested_asserts(language, tests, agreed, users)
    first = list({d.call: d for d in reversed(disputed)}.values())[::-1][:READ]
    kept = [d for d in first if read(d.call, [agreed[d.call], d.expected]) == 1]
    for d in kept:
        logger.info("kept %s -> %s: the request reads it", d.call, d.expected)
    return kept


def spared(
    language: str,
    tests: dict[str, str],
    names: Sequence[str],
    reported: Sequence[str],
    readings: dict[str, str],
) -> list[str]:
    """``names`` (tests to set aside) without those holding a check kept by reading
    (``readings``: its call -> the output the agreeing drafts give)."""
    if not readings:
        return list(names)
    held = len(contested_asserts(language, tests, readings, ()))
    out = []
    for name in names:
        left, _ = remove_tests(language, tests, [name], reported)
        if len(contested_asserts(language, left, readings, ())) == held:
            out.append(name)
    return out
