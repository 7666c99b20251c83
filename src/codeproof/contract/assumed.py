"""Assumptions of the analyst's that the user's words rule out.

The analyst lists the assumptions it would make if the user said "proceed". A small
model often assumes the input away: "The input string is always valid and non-empty"
for a request that says what happens to an empty string and which error invalid text
raises. Such an assumption goes into every later prompt and into the project's README,
where it tells the programmer, the test designer and the user that the stated error
behaviour does not matter. The user's words decide: where they state an error, speak of
empty input or of negative values, an assumption of the analyst's that denies that case
is dropped. Assumptions the user accepted are never dropped here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from codeproof.contract.listed import stated_errors

_FLAGS = re.IGNORECASE


@dataclass(frozen=True)
class _Denial:
    """An assumption that denies one kind of input, and when the words state that kind."""

    kind: str
    assumes: re.Pattern[str]
    stated: Callable[[str], bool]


_DENIALS = (
    _Denial(
        "invalid input",
        re.compile(
            r"\b(?:always|guaranteed|assumed?|will be|is|are)\b[^.;]{0,60}?"
            r"\b(?:valid|well[- ]formed|properly formatted|correctly formatted)\b"
            r"|\bno (?:invalid|malformed)\b|\bnever (?:be )?(?:invalid|malformed)\b",
            _FLAGS,
        ),
        lambda words: bool(stated_errors(words)),
    ),
    _Denial(
        "empty input",
        re.compile(r"\bnon-?empty\b|\bnot (?:be )?empty\b|\bnever (?:be )?empty\b", _FLAGS),
        lambda words: re.search(r"\bempty\b", words, _FLAGS) is not None,
    ),
    _Denial(
        "negative values",
        re.compile(
            r"\bnon-?negative\b|\bnot (?:be )?negative\b|\bnever (?:be )?negative\b", _FLAGS
        ),
        lambda words: re.search(r"\bnegative\b", words, _FLAGS) is not None,
    ),
)


def denied(assumption: str, words: str) -> str | None:
    """The kind of input the user's ``words`` speak of and ``assumption`` assumes away
    ("invalid input", "empty input", "negative values"), or ``None``."""
    for denial in _DENIALS:
        if denial.assumes.search(assumption) and denial.stated(words):
            return denial.kind
    return None


def kept_assumptions(
    assumptions: Sequence[str], accepted: Sequence[str], words: str
) -> tuple[list[str], list[str]]:
    """``(kept, dropped)``: ``assumptions`` without the analyst's own that deny a case
    the user's ``words`` speak of; every one in ``accepted`` (the user's) is kept."""
    mine = set(accepted)
    kept: list[str] = []
    dropped: list[str] = []
    for assumption in assumptions:
        if assumption not in mine and denied(assumption, words) is not None:
            dropped.append(assumption)
        else:
            kept.append(assumption)
    return kept, dropped
