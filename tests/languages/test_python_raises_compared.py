"""An assert comparing a call with ``pytest.raises`` becomes the block it means."""

from __future__ import annotations

import pytest

from codeproof.languages.python.raises_compared import raises_as_blocks
from codeproof.languages.python.tidy import fix_tests

BEFORE = """import pytest
from temperature import to_f


def test_edge_cases():
    assert to_f(-300) == pytest.raises(ValueError)
    assert pytest.raises(TypeError) is to_f("x")
    assert to_f(0) == 32.0
    x = 1; assert to_f(x) == pytest.raises(ValueError)
"""

AFTER = """import pytest
from temperature import to_f


def test_edge_cases():
    with pytest.raises(ValueError):
        to_f(-300)
    with pytest.raises(TypeError):
        to_f('x')
    assert to_f(0) == 32.0
    x = 1; assert to_f(x) == pytest.raises(ValueError)
"""


def test_asserts_comparing_with_raises_become_raises_blocks() -> None:
    assert raises_as_blocks(BEFORE) == AFTER
    compile(AFTER, "test_t.py", "exec")


@pytest.mark.parametrize(
    "source",
    [
        "def test_a():\n    assert f(1) == 2\n",
        "def test_a():\n    assert f(1) == raises(1), 'why'\n",  # a message: left alone
        "def test_a(:\n    assert f(1) == pytest.raises(E)\n",  # does not parse
        "def test_a():\n    assert raises(E) == pytest.raises(E)\n",
    ],
)
def test_other_asserts_are_left_as_written(source: str) -> None:
    assert raises_as_blocks(source) == source


def test_the_test_tidy_writes_the_block() -> None:
    source = "from m import f\n\n\ndef test_a():\n    assert f(-1) == pytest.raises(ValueError)\n"
    fixed = fix_tests(source, "test_m.py", "m", [])
    assert "    with pytest.raises(ValueError):\n        f(-1)\n" in fixed
