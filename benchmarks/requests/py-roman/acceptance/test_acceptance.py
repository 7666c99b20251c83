"""Acceptance tests of py-roman, written from request.md alone."""

import pytest
from roman import from_roman, to_roman


def test_to_roman_1994() -> None:
    assert to_roman(1994) == "MCMXCIV"


def test_to_roman_4() -> None:
    assert to_roman(4) == "IV"


def test_to_roman_range_ends() -> None:
    assert to_roman(1) == "I"
    assert to_roman(3999) == "MMMCMXCIX"


def test_from_roman_2024() -> None:
    assert from_roman("MMXXIV") == 2024


def test_from_roman_accepts_lowercase() -> None:
    assert from_roman("xiv") == 14


@pytest.mark.parametrize("n", [0, -1, 4000])
def test_to_roman_rejects_numbers_outside_range(n: int) -> None:
    with pytest.raises(ValueError):
        to_roman(n)


@pytest.mark.parametrize("text", ["IIII", "VX", "IC", ""])
def test_from_roman_rejects_invalid_numerals(text: str) -> None:
    with pytest.raises(ValueError):
        from_roman(text)


def test_round_trip_for_every_number() -> None:
    for n in range(1, 4000):
        numeral = to_roman(n)
        assert numeral == numeral.upper()
        assert from_roman(numeral) == n
