"""Checks whose calls cannot bind to the interface every candidate defines are set aside."""

from __future__ import annotations

import ast

import pytest

from codeproof.choosing.selection import choose
from codeproof.core.types import Module
from codeproof.languages.python.misfits import Misfits, binds, edit
from codeproof.toolchains.client import ToolchainClient

ADD = "def add(a, b):\n    return a + b\n"

TESTS = """import pytest
from add import add


def test_add():
    assert add(1, 2) == 3
    assert add() == 0, "no numbers"
    for x in range(2):
        assert add(x, c=1) == x
    with pytest.raises(TypeError):
        add()


def test_only_misfits():
    assert add(1, 2, 3) == 6


def test_stray():
    result = add()
    assert result == 0


def test_fits():
    assert add(b=1, a=2) == 3
"""


def _call(text: str) -> ast.Call:
    node = ast.parse(text, mode="eval").body
    assert isinstance(node, ast.Call)
    return node


def _params(signature: str) -> ast.arguments:
    node = ast.parse(f"def f{signature}: pass").body[0]
    assert isinstance(node, ast.FunctionDef)
    return node.args


@pytest.mark.parametrize(
    ("signature", "call", "fits"),
    [
        ("(a, b)", "f(1, 2)", True),
        ("(a, b)", "f()", False),
        ("(a, b)", "f(1)", False),
        ("(a, b)", "f(1, 2, 3)", False),
        ("(a, b)", "f(1, a=2)", False),  # a given twice
        ("(a, b)", "f(1, c=2)", False),
        ("(a, b)", "f(b=1, a=2)", True),
        ("(a, b=0)", "f(1)", True),
        ("(a, /, b)", "f(a=1, b=2)", False),
        ("(*args)", "f(1, 2, 3)", True),
        ("(a, *, key)", "f(1)", False),
        ("(a, *, key=None)", "f(1)", True),
        ("(**kw)", "f(x=1)", True),
        ("(a, b)", "f(*xs)", True),  # unknown: not judged
        ("(a, b)", "f(**kw)", True),
    ],
)
def test_binds(signature: str, call: str, fits: bool) -> None:
    assert binds(_call(call), _params(signature)) is fits


def test_a_misfit_must_misfit_every_candidate_and_the_declared_interface() -> None:
    two = [{"add.py": ADD}, {"add.py": ADD + "\n"}]
    assert Misfits(two, {"add"}, "add(a, b)").why(_call("add()")) == "add() does not fit add(a, b)"
    assert Misfits(two, {"add"}, "add(a, b)").why(_call("add(1, 2)")) is None
    # one candidate takes a default: the call fits somebody
    some = [*two, {"add.py": "def add(a, b=0):\n    return a + b\n"}]
    assert Misfits(some, {"add"}, "add(a, b)").why(_call("add(1)")) is None
    # the declared interface takes the call: the candidates misread it, not the test
    assert Misfits(two, {"add"}, "add(a, b=0) -> number").why(_call("add(1)")) is None
    # one candidate and nothing readable declared: one opinion is not enough
    assert Misfits(two[:1], {"add"}, "adds numbers").why(_call("add()")) is None
    assert Misfits(two[:1], {"add"}, "add(a: int, b: int) -> int").why(_call("add()"))
    # a decorated definition may change the signature: not judged
    decorated = [{"add.py": "import functools\n@functools.cache\n" + ADD}, *two]
    assert Misfits(decorated, {"add"}, "add(a, b)").why(_call("add()")) is None
    # names outside the interface, and test files, are not read
    assert Misfits(two, {"sub"}, "sub(a, b)").why(_call("add()")) is None
    tests_only = [{"test_add.py": ADD}, {"test_add.py": ADD + "\n"}]
    assert Misfits(tests_only, {"add"}, "add(a, b)").why(_call("add()")) is None


def test_misfitting_checks_are_set_aside_and_tests_left_without_checks_removed() -> None:
    candidates = [{"add.py": ADD}, {"add.py": ADD + "\n"}]
    edited, notes = edit({"test_add.py": TESTS}, candidates, {"add"}, "add(a, b)", ())
    text = edited["test_add.py"]
    compile(text, "test_add.py", "exec")
    assert "assert add(1, 2) == 3" in text and "assert add(b=1, a=2) == 3" in text
    assert 'add() == 0, "no numbers"' not in text
    assert "    for x in range(2):\n        pass  # codeproof: set aside" in text
    assert "with pytest.raises(TypeError):\n        add()" in text  # expecting the error
    assert "def test_only_misfits" not in text and "def test_stray" not in text
    assert notes == [
        "test_add.py::test_add: add() does not fit add(a, b)",
        "test_add.py::test_add: add(x, c=1) does not fit add(a, b)",
        "test_add.py::test_only_misfits: removed, add(1, 2, 3) does not fit add(a, b)",
        "test_add.py::test_stray: removed, add() does not fit add(a, b)",
    ]
    # protected files and files that are not Python tests are left as they are
    assert edit({"test_add.py": TESTS}, candidates, {"add"}, "add(a, b)", {"test_add.py"})[1] == []
    assert edit({"add.test.js": TESTS}, candidates, {"add"}, "add(a, b)", ())[1] == []


def test_choose_sets_aside_calls_that_fit_no_candidate(python_toolchain: ToolchainClient) -> None:
    module = Module(name="add", purpose="adds", language="python", public_interface="add(a, b)")
    tests = "from add import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
    tests += "    assert add() == 0\n\n\ndef test_none():\n    assert add(1) == 1\n"
    choice = choose(
        lambda files, t: python_toolchain.run_tests(files, t, 60),
        [{"add.py": ADD}, {"add.py": ADD + "\n"}],
        {"test_add.py": tests},
        module,
    )
    assert [r.passed for r in choice.reports] == [0, 0]
    assert choice.report.green and choice.report.total == 1
    assert choice.quarantined == [
        "test_add.py::test_add: add() does not fit add(a, b)",
        "test_add.py::test_none: removed, add(1) does not fit add(a, b)",
    ]
    assert "add() == 0" not in choice.tests["test_add.py"].replace("set aside, add()", "")
