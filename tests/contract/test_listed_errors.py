"""Inputs a request lists with the error they raise become stated error examples."""

from __future__ import annotations

import pytest

from codeproof.contract.listed import listed_errors
from codeproof.contract.spec_examples import module_examples

PARAMS = {"from_roman": ["s"], "to_roman": ["n"], "add": ["a", "b"]}


def test_each_listed_input_is_an_example_of_the_error_and_an_empty_string_is_read() -> None:
    text = (
        "from_roman raises ValueError for anything that is not a valid numeral in that "
        'standard form, for example "IIII", "VX", "IC" or an empty string. '
        "For every n, from_roman(to_roman(n)) must give n back."
    )
    assert listed_errors(text, ["to_roman", "from_roman"], PARAMS) == [
        'from_roman("IIII") -> raises ValueError',
        'from_roman("VX") -> raises ValueError',
        'from_roman("IC") -> raises ValueError',
        'from_roman("") -> raises ValueError',
    ]


def test_other_wordings_of_the_list_and_the_error() -> None:
    said = 'from_roman(s) throws a SyntaxError for malformed text, e.g. "(1" and "2 +".'
    assert listed_errors(said, ["from_roman"], PARAMS) == [
        'from_roman("(1") -> raises SyntaxError',
        'from_roman("2 +") -> raises SyntaxError',
    ]
    said = "to_roman raises ValueError for numbers such as 0 or -3; others are fine."
    assert listed_errors(said, ["to_roman"], PARAMS) == [
        "to_roman(0) -> raises ValueError",
        "to_roman(-3) -> raises ValueError",
    ]


@pytest.mark.parametrize(
    "text",
    [
        # an item that is not a literal: the list is not read at all
        'from_roman raises ValueError for bad input such as "X1", 5 or a letter.',
        # two functions in the sentence: whose input is it?
        'to_roman and from_roman raise ValueError, for example for "IIII".',
        # no function named: a malformed expression such as "2 +" (js-calculator)
        'A malformed expression such as "2 +", "(1" or "" throws a SyntaxError.',
        # a function of two parameters: the item is not its whole input
        'add raises TypeError for text, for example "x".',
        # no error stated
        'from_roman accepts lowercase, for example "xiv".',
    ],
)
def test_what_is_ambiguous_is_not_read(text: str) -> None:
    assert listed_errors(text, ["to_roman", "from_roman", "add"], PARAMS) == []


def test_a_module_gets_the_listed_errors_of_its_interface() -> None:
    words = (
        'Write roman.py: to_roman(4) returns "IV". from_roman raises ValueError for '
        'invalid numerals, for example "IIII" or "VX".'
    )
    interface = "to_roman(n: int) -> str\nfrom_roman(s: str) -> int"
    assert module_examples(words, [], interface) == [
        'to_roman(4) -> "IV"',
        'from_roman("IIII") -> raises ValueError',
        'from_roman("VX") -> raises ValueError',
    ]


def test_the_errors_a_request_states_are_read_in_its_common_phrasings() -> None:
    from codeproof.contract.listed import stated_errors

    text = (
        "parse_temp raises ValueError for anything else. Throws a RangeError when qty is 0; "
        "an IllegalArgumentException is thrown for a null key; KeyError should be raised. "
        "It raises an error for bad input; we use ValueError objects; throws `TypeError`."
    )
    assert stated_errors(text) == {
        "ValueError", "RangeError", "IllegalArgumentException", "KeyError", "TypeError"
    }  # fmt: skip
    assert stated_errors("No errors here: ValueError is a class name only.") == frozenset()
