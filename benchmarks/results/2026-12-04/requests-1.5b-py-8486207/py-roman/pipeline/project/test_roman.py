import pytest
from roman import to_roman, from_roman

# R1: Write a Python module roman.py with two functions, to_roman and from_roman.
def test_to_roman():
    assert to_roman(1994) == 'MCMXCIV'
    assert to_roman(4) == 'IV'
    assert to_roman(2024) == 'MMXXIV'
    pass  # codeproof: set aside, to_roman(14) == 'xiv' (the agreeing candidates return 'XIV')
    assert to_roman(1) == 'I'
    assert to_roman(2) == 'II'
    assert to_roman(3) == 'III'
    assert to_roman(40) == 'XL'
    assert to_roman(50) == 'L'
    assert to_roman(60) == 'LX'
    assert to_roman(70) == 'LXX'
    assert to_roman(80) == 'LXXX'
    assert to_roman(90) == 'XC'
    assert to_roman(100) == 'C'
    assert to_roman(200) == 'CC'
    assert to_roman(300) == 'CCC'
    assert to_roman(400) == 'CD'
    assert to_roman(500) == 'D'
    assert to_roman(600) == 'DC'
    assert to_roman(700) == 'DCC'
    assert to_roman(800) == 'DCCC'
    assert to_roman(900) == 'CM'
    assert to_roman(1000) == 'M'

def test_from_roman():
    assert from_roman('MCMXCIV') == 1994
    assert from_roman('IV') == 4
    assert from_roman('MMXXIV') == 2024
    assert from_roman('xiv') == 14
    assert from_roman('I') == 1
    assert from_roman('II') == 2
    assert from_roman('III') == 3
    assert from_roman('XL') == 40
    assert from_roman('L') == 50
    assert from_roman('LX') == 60
    assert from_roman('LXX') == 70
    assert from_roman('LXXX') == 80
    assert from_roman('XC') == 90
    assert from_roman('C') == 100
    assert from_roman('CC') == 200
    assert from_roman('CCC') == 300
    assert from_roman('CD') == 400
    assert from_roman('D') == 500
    assert from_roman('DC') == 600
    assert from_roman('DCC') == 700
    assert from_roman('DCCC') == 800
    assert from_roman('CM') == 900
    assert from_roman('M') == 1000

# R3, R4 hold for every input: a rule that holds for every input gets one property test with hypothesis (`from hypothesis import given, strategies as st`, `@given(...)`).
def test_to_roman_edge_cases():
    with pytest.raises(ValueError):
        to_roman(0)
    with pytest.raises(ValueError):
        to_roman(4000)
    with pytest.raises(ValueError):
        to_roman('IIII')
    with pytest.raises(ValueError):
        to_roman('VX')
    with pytest.raises(ValueError):
        to_roman('IC')
    with pytest.raises(ValueError):
        to_roman('')
