"""The syntax facade on Python: for code :mod:`ast` cannot parse."""

from __future__ import annotations

import ast

import pytest

from codeproof.languages.syntax import parse, parse_expression

BROKEN = '''import pytest
from m import add

__all__ = ["add"]


def test_broken():
    assert add(1, 2) ==


@pytest.mark.parametrize("a", ["x)", 'y"'])
def test_param(a):
    """Doc (with a ')')."""
    # add(9, 9) in a comment
    assert add(a, 0) == a, f"{a} )"


class TestK:
    async def test_m(self):
        assert f(x=1, y=[1, "a"]) == {"k": (1, -2.5)}


def helper(x: int = 0) -> int:
    return x
'''


def test_python_the_ast_cannot_parse_is_still_read() -> None:
    with pytest.raises(SyntaxError):
        ast.parse(BROKEN)
    tree = parse("python", BROKEN)
    assert tree.has_error and tree.errors()[0].span.start_line == 8
    assert [(c.name, c.suite) for c in tree.tests()] == [
        ("test_broken", ()),
        ("test_param", ()),
        ("test_m", ("TestK",)),
    ]
    param = tree.tests()[1]
    assert param.node.text.startswith("@pytest.mark.parametrize") and param.node.span.end_line == 15
    decls = {d.name: d for d in tree.declarations()}
    assert decls["test_param"].doc == "Doc (with a ')')."
    helper = decls["helper"]
    assert helper.parameters is not None and helper.parameters.text == "(x: int = 0)"
    assert helper.returns is not None and helper.returns.text == "int"
    assert decls["test_m"].owner == "TestK" and decls["test_m"].modifiers == ("async",)
    assert [e.name for e in tree.exports()] == ["add"]


def test_python_calls_and_literal_arguments() -> None:
    tree = parse("python", BROKEN)
    calls = tree.calls({"add", "f"})
    assert [c.arguments.text for c in calls] == ["(1, 2)", "(a, 0)", '(x=1, y=[1, "a"])']
    assert [a.constant() for a in calls[2].args] == [True, True]
    assert [a.constant() for a in calls[1].args] == [False, True]
    checks = tree.assertions(tree.tests()[2].node)
    assert [a.arguments[0].text for a in checks] == ['f(x=1, y=[1, "a"]) == {"k": (1, -2.5)}']


@pytest.mark.parametrize(
    ("text", "value"),
    [("'a\\n' 'b'", "a\nb"), ("-1.5", -1.5), ("(1, [None, True])", (1, [None, True])),
     ("{1: {2}}", {1: {2}}), ("b'x'", b"x")],
)  # fmt: skip
def test_python_literal_values(text: str, value: object) -> None:
    node = parse_expression("python", text)
    assert node is not None and node.value() == (True, value) and node.constant()


@pytest.mark.parametrize("text", ["f'{x}'", "x", "[i for i in range(3)]", "lambda: 1"])
def test_python_expressions_that_are_not_literals(text: str) -> None:
    node = parse_expression("python", text)
    assert node is not None and node.value() == (False, None) and not node.constant()
