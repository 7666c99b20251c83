"""Acceptance tests of py-bill-split, written from request.md alone."""

import pytest
from money import format_money, parse_money
from split import split_bill, split_evenly


def test_parse_plain_amount() -> None:
    assert parse_money("12.34") == 1234


def test_parse_dollar_sign_and_thousands() -> None:
    assert parse_money("$1,234.50") == 123450
    assert parse_money("1,000,000") == 100000000


def test_parse_whole_and_one_decimal() -> None:
    assert parse_money("5") == 500
    assert parse_money("5.5") == 550


@pytest.mark.parametrize("text", ["-5", "1.234", "abc", ""])
def test_parse_rejects_invalid_amounts(text: str) -> None:
    with pytest.raises(ValueError):
        parse_money(text)


def test_format_example() -> None:
    assert format_money(123450) == "$1,234.50"


def test_format_small_amounts() -> None:
    assert format_money(0) == "$0.00"
    assert format_money(5) == "$0.05"


def test_split_example() -> None:
    assert split_evenly(1000, 3) == [334, 333, 333]


def test_split_zero() -> None:
    assert split_evenly(0, 2) == [0, 0]


def test_split_needs_at_least_one_person() -> None:
    with pytest.raises(ValueError):
        split_evenly(1000, 0)


def test_split_invariants() -> None:
    for total in [1, 7, 99, 100, 101, 1000, 12345, 99999]:
        for people in range(1, 13):
            shares = split_evenly(total, people)
            assert len(shares) == people
            assert sum(shares) == total
            assert max(shares) - min(shares) <= 1
            assert shares == sorted(shares, reverse=True)


def test_split_bill_example() -> None:
    assert split_bill("$10.00", 3) == ["$3.34", "$3.33", "$3.33"]
