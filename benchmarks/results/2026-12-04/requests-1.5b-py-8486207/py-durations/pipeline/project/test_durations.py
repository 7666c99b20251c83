import pytest
from durations import parse_duration, format_duration

def test_parse_duration():
    assert parse_duration('1h30m') == 5400
    assert parse_duration('2h 5m 10s') == 7510
    assert parse_duration('90s') == 90
    with pytest.raises(ValueError):
        parse_duration('1h30m30s')
    with pytest.raises(ValueError):
        parse_duration('1h30m30s.')
    with pytest.raises(ValueError):
        parse_duration('1h30m30s!')
    with pytest.raises(ValueError):
        parse_duration('1h30m30s?')
    with pytest.raises(ValueError):
        parse_duration('1h30m30s!')
    with pytest.raises(ValueError):
        parse_duration('1h30m30s!')
    with pytest.raises(ValueError):
        parse_duration('1h30m30s!')
    with pytest.raises(ValueError):
        parse_duration('1h30m30s!')
