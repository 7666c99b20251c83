"""The shared Python test-file editor used by the consensus and misfit edits."""

from __future__ import annotations

import ast

from codeproof.languages.python.pytest_edit import (
    FunctionNode,
    Verdict,
    edit_tests,
    expected_raises,
)

SOURCE = """import pytest


def test_keep():
    assert f(1) == 1


@pytest.mark.parametrize("x", [1, 2])
def test_gone(x):
    assert f(x) == x


def test_partial():
    assert f(2) == 2
    assert f(
        3
    ) == 99
"""


def _asserts(function: FunctionNode) -> list[ast.Assert]:
    return [n for n in ast.walk(function) if isinstance(n, ast.Assert)]


def _judge(function: FunctionNode) -> Verdict | None:
    if function.name == "test_gone":
        return Verdict(["removed, no reason"], remove=True)
    if function.name == "test_partial":
        wrong = _asserts(function)[1]
        return Verdict(["f(3) is 3"], [(wrong, "f(3) is 3")])
    return None


def test_removes_functions_with_decorators_and_sets_checks_aside() -> None:
    edited, notes = edit_tests(SOURCE, _judge)
    assert notes == ["test_gone: removed, no reason", "test_partial: f(3) is 3"]
    assert "test_gone" not in edited and "parametrize" not in edited
    assert "    pass  # codeproof: set aside, f(3) is 3\n" in edited
    assert "99" not in edited and "assert f(2) == 2" in edited
    assert "def test_keep():\n    assert f(1) == 1" in edited
    compile(edited, "<edited>", "exec")


def test_an_edit_that_does_not_compile_leaves_the_source_alone() -> None:
    source = "def test_a():\n    assert f(1) == 1\n    return 1\n"

    # A node placed inside the assert's expression: the note would land mid-statement.
    inside = ast.Pass(lineno=2, col_offset=len("    assert "), end_lineno=2, end_col_offset=20)

    def judge(function: FunctionNode) -> Verdict:
        return Verdict(["bad"], [(inside, "bad")])

    assert edit_tests(source, judge) == (source, [])


def test_unparsable_source_is_returned_unchanged() -> None:
    assert edit_tests("def test_a(:\n", _judge) == ("def test_a(:\n", [])


def test_expected_raises_finds_pytest_raises_items_only() -> None:
    source = """
with pytest.raises(ValueError, match="x") as info, open("f") as f:
    g()
with raises(TypeError):
    g()
with open("raises.txt") as raises_log:
    g()
with ctx_raises:
    g()
"""
    blocks = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.With)]
    found = [[ast.unparse(e) for e in expected_raises(b)] for b in blocks]
    assert found == [["pytest.raises(ValueError, match='x')"], ["raises(TypeError)"], [], []]


def test_removed_functions_leave_no_gap_of_blank_lines() -> None:
    source = "import pytest\n\ndef test_a():\n    assert f(1) == 1\n" + "".join(
        f"\ndef test_{n}():\n    assert f({n}) == 0\n" for n in (2, 3, 4)
    )

    def judge(function: FunctionNode) -> Verdict | None:
        if function.name == "test_a":
            return None
        return Verdict(["wrong"], remove=True)

    edited, _ = edit_tests(source, judge)
    assert edited == "import pytest\n\ndef test_a():\n    assert f(1) == 1\n"
    # a function removed between two kept ones leaves at most two blank lines
    edited, _ = edit_tests(SOURCE.replace("def test_keep", "\n\ndef test_keep"), _judge)
    assert "assert f(1) == 1\n\n\ndef test_partial" in edited
    assert edited.startswith("import pytest\n\n\n\n\ndef test_keep")  # untouched gaps stay
