"""Assumptions of the analyst's that the user's words rule out are dropped."""

from __future__ import annotations

import pytest

from codeproof.contract.assumed import denied, kept_assumptions

DURATIONS = (
    "parse_duration raises ValueError for anything else (an empty string, an unknown unit), "
    "and format_duration raises ValueError for negative seconds."
)


@pytest.mark.parametrize(
    ("assumption", "kind"),
    [
        ("The input string is always valid and non-empty.", "invalid input"),
        ("The input expression is always valid and well-formed.", "invalid input"),
        ("There is no invalid input.", "invalid input"),
        ("The text is never empty.", "empty input"),
        ("Seconds are non-negative integers.", "negative values"),
    ],
)
def test_an_assumption_denying_a_stated_case(assumption: str, kind: str) -> None:
    assert denied(assumption, DURATIONS) == kind


@pytest.mark.parametrize(
    "assumption",
    [
        "Units are lowercase.",
        "Valid units are h, m and s.",  # restates the rule
        "Invalid input raises ValueError.",  # agrees with the words
        "Hours may exceed 24.",
    ],
)
def test_an_assumption_the_words_leave_open_is_kept(assumption: str) -> None:
    assert denied(assumption, DURATIONS) is None


def test_only_a_case_the_words_speak_of_counts() -> None:
    # no error, nothing empty, nothing negative is stated: the analyst may assume it
    words = "a function that adds two numbers"
    for assumption in ("Inputs are always valid.", "The list is non-empty.", "x is non-negative"):
        assert denied(assumption, words) is None


def test_the_users_accepted_assumptions_are_kept_whatever_they_say() -> None:
    accepted = ["The input string is always valid."]
    analysts = ["The input string is always valid and non-empty.", "Units are lowercase."]
    kept, dropped = kept_assumptions([*accepted, *analysts], accepted, DURATIONS)
    assert kept == ["The input string is always valid.", "Units are lowercase."]
    assert dropped == ["The input string is always valid and non-empty."]
