"""Single assertions that contradict the agreeing candidates are set aside."""

from __future__ import annotations

import pytest

from codeproof.agents.schemas import Module
from codeproof.toolchains.client import ToolchainClient
from codeproof.workflow.consensus import consensus, edit_python_asserts
from codeproof.workflow.selection import choose

TESTS = """from add import add


def test_add():
    assert add(1, 2) == 3
    assert add(-100, -100) == 0, "wrong"
    for _ in range(2):
        assert add(2, 2) == 5


@pytest.mark.parametrize("x", [1])
def test_only_wrong(x):
    assert add(0, 0) == 1


def test_other():
    assert add(5, 5) == 11
    assert 3 == add(1.5, 1.5)
"""


def test_consensus_needs_two_and_a_majority_and_a_value() -> None:
    calls = ["f(1)", "f(2)", "f(3)"]
    outputs = [["1", "!ValueError", "x"], ["1", "!ValueError", "y"], ["2", "!ValueError", "z"]]
    assert consensus(outputs, 0, calls) == {"f(1)": "1"}
    assert consensus(outputs, 2, calls) == {}
    assert consensus([["1"], None, None], 0, ["f(1)"]) == {}  # alone
    assert consensus([None, ["1"]], 0, ["f(1)"]) == {}


def test_contradicting_asserts_are_set_aside_and_empty_tests_removed() -> None:
    agreed = {"add(1, 2)": "3", "add(-100, -100)": "-200", "add(2, 2)": "4", "add(0, 0)": "0"}
    agreed |= {"add(1.5, 1.5)": "3.0"}
    edited, notes = edit_python_asserts({"test_add.py": TESTS}, agreed, ())
    text = edited["test_add.py"]
    compile(text, "test_add.py", "exec")
    assert "assert add(1, 2) == 3" in text and "assert add(5, 5) == 11" in text
    assert "assert 3 == add(1.5, 1.5)" in text  # 3.0 == 3: no dispute
    assert "add(-100, -100) == 0" not in text.replace("set aside, add(-100, -100) == 0", "")
    assert "def test_only_wrong" not in text and "parametrize" not in text
    assert "for _ in range(2):\n        pass  # codeproof: set aside" in text
    assert notes == [
        "test_add.py::test_add: add(-100, -100) == 0 (the agreeing candidates return -200)",
        "test_add.py::test_add: add(2, 2) == 5 (the agreeing candidates return 4)",
        "test_add.py::test_only_wrong: add(0, 0) == 1 (the agreeing candidates return 0)",
    ]
    unchanged, none = edit_python_asserts(
        {"test_add_examples.py": TESTS}, agreed, ["test_add_examples.py"]
    )
    assert unchanged == {"test_add_examples.py": TESTS} and none == []


@pytest.mark.docker
def test_choose_sets_aside_wrong_asserts_of_agreeing_candidates(
    python_toolchain: ToolchainClient,
) -> None:
    module = Module(name="add", purpose="adds", language="python", public_interface="add(a, b)")
    code = "def add(a, b):\n    return a + b\n"
    choice = choose(
        lambda files, tests: python_toolchain.run_tests(files, tests, 60),
        [{"add.py": code}, {"add.py": code + "\n"}, {"add.py": "def add(a, b):\n    return a\n"}],
        {"test_add.py": "import pytest\n" + TESTS},
        module,
        run_program=lambda files, args, t: python_toolchain.run(files, args, timeout_s=t),
    )
    assert choice.index == 0 and choice.output_agreement == [7, 7, 2]
    assert [r.passed for r in choice.reports] == [0, 0, 0]
    assert choice.report.green and choice.report.total == 2  # test_only_wrong is gone
    assert [q.split(": ", 1)[1].split(" (")[0] for q in choice.quarantined] == [
        "add(-100, -100) == 0",
        "add(2, 2) == 5",
        "add(0, 0) == 1",
        "add(5, 5) == 11",
    ]
    assert "test_only_wrong" not in choice.tests["test_add.py"]
