"""Acceptance tests of py-durations, written from request.md alone."""

import pytest
from durations import format_duration, parse_duration


def test_parse_hours_and_minutes() -> None:
    assert parse_duration("1h30m") == 5400


def test_parse_with_spaces() -> None:
    assert parse_duration("2h 5m 10s") == 7510


def test_parse_seconds_over_a_minute() -> None:
    assert parse_duration("90s") == 90


def test_format_hours_and_minutes() -> None:
    assert format_duration(5400) == "1h 30m"


def test_format_all_parts() -> None:
    assert format_duration(3725) == "1h 2m 5s"


def test_format_seconds_only() -> None:
    assert format_duration(59) == "59s"


def test_format_zero_and_zero_parts_left_out() -> None:
    assert format_duration(0) == "0s"
    assert format_duration(3600) == "1h"
    assert format_duration(3605) == "1h 5s"


@pytest.mark.parametrize("text", ["", "5x", "1m 1h", "1h 1h", "15"])
def test_parse_rejects_invalid_text(text: str) -> None:
    with pytest.raises(ValueError):
        parse_duration(text)


def test_format_rejects_negative_seconds() -> None:
    with pytest.raises(ValueError):
        format_duration(-1)


def test_round_trip_and_parts_below_sixty() -> None:
    for n in [*range(0, 4000), 86399, 86400, 90061, 360000]:
        text = format_duration(n)
        assert parse_duration(text) == n
        for part in text.split():
            if part.endswith(("m", "s")):
                assert int(part[:-1]) <= 59
