"""Reading a prompt's stated examples in the notations docstrings use."""

from __future__ import annotations

import pytest

from codeproof.choosing.examples import example_tests
from codeproof.contract.examples import examples_of, parameters
from codeproof.core.types import Module


@pytest.mark.parametrize(
    ("signature", "names"),
    [
        ("def f(lst: List[int], k: int = 3) -> int:", ["lst", "k"]),
        ("def g(*args, key=None):", ["key"]),
        ("const h = (a, b) =>", ["a", "b"]),
        ("public int maxFill(List<List<Integer>> grid, Map<String, Integer> cap)", ["grid", "cap"]),
        ("def nothing():", []),
    ],
)
def test_parameters_are_read_from_python_javascript_and_java_signatures(
    signature: str, names: list[str]
) -> None:
    assert parameters(signature) == names


def test_doctest_results_on_the_next_line_or_on_the_same_line() -> None:
    doc = """Count them.
    >>> count([1, 2])
    2
    >>> count([]) == 0
    >>> count([5]) == 1
    """
    assert examples_of(doc, "count") == [
        "count([1, 2]) -> 2",
        "count([]) -> 0",
        "count([5]) -> 1",
    ]


def test_arrow_examples_lose_a_comment_mark_a_remark_and_their_working() -> None:
    doc = """
    check("a.txt") # => 'Yes'
    check("1a.dll") # => 'No' (the name must start with a letter)
    share("3 apples", 10) -> 10 - 3 = 7
    assert check("b.txt") ➞ 'Yes'
    """
    assert examples_of(doc, "check") == [
        "check(\"a.txt\") -> 'Yes'",
        "check(\"1a.dll\") -> 'No'",
        "check(\"b.txt\") -> 'Yes'",
    ]
    assert examples_of(doc, "share") == ['share("3 apples", 10) -> 7']


def test_a_bare_equals_sign_is_a_definition_not_an_example() -> None:
    doc = """tri(1) = 3
    tri(n) = 1 + n / 2, if n is even.
    Examples:
    tri(3) = [1, 3, 2, 8]
    """
    assert examples_of(doc, "tri", ["n"]) == []


def test_named_inputs_map_to_the_parameters_in_signature_order() -> None:
    doc = """Examples:
    For lst = [1,2,3] the output should be 6
    For N = 4, the sum of its digits is 4 the output should be "100".
    For items = [1] the output should be 1
    """
    assert examples_of(doc, "total", ["lst"]) == ["total([1,2,3]) -> 6"]
    assert examples_of(doc, "binary", ["N"]) == ['binary(4) -> "100"']
    two = "For k = 2, lst = [] the output should be 0.\nFor lst = [1] the output should be 1"
    assert examples_of(two, "total", ["lst", "k"]) == ["total([], 2) -> 0"]  # k is missing


def test_input_output_blocks_on_one_line_or_one_item_per_line() -> None:
    doc = """
    Example 1:
        Input:
            grid : [[0,1], [1,1]]
            bucket_capacity : 1
        Output: 3

    Example 2:
        Input: grid = [[1]], capacity = 2
        Output: 1 (one lowering)

    Example 3:
        Input: rows = [[1]], capacity = 2
        Output: 1
    """
    assert examples_of(doc, "fill", ["grid", "capacity"]) == [
        "fill([[0,1], [1,1]], 1) -> 3",
        "fill([[1]], 2) -> 1",
    ]


def test_named_examples_become_protected_tests() -> None:
    module = Module(
        name="total",
        purpose="sum",
        language="python",
        depends_on=[],
        public_interface="def total(lst, k):",
    )
    doc = "For k = 2, lst = [1] the output should be 3\n"
    files = example_tests(module, examples_of(doc, "total", parameters(module.public_interface)))
    assert list(files) == ["test_total_examples.py"]
    assert "assert total([1], 2) == 3" in files["test_total_examples.py"]
