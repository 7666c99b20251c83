"""Tests generated without a model from the specification's examples."""

from __future__ import annotations

import pytest

from codeproof.choosing.examples import example_tests, is_example_test, split_example
from codeproof.contract.said import stated_in
from codeproof.core.types import Module
from codeproof.languages.registry import layout_for


def _module(language: str, interface: str, name: str = "m") -> Module:
    return Module(name=name, purpose="p", language=language, public_interface=interface)


@pytest.mark.parametrize(
    ("example", "expected"),
    [
        ("f(1, 2) -> 3", ("f(1, 2)", "3")),
        (">>> f('a')  ==> 'b'.", ("f('a')", "'b'")),
        ("f([1]) should return [2]", ("f([1])", "[2]")),
        ("nothing to see", None),
    ],
)
def test_examples_split_into_call_and_result(
    example: str, expected: tuple[str, str] | None
) -> None:
    assert split_example(example) == expected


def test_python_examples_become_literal_assertions() -> None:
    module = _module("python", "def slug(s: str) -> str")
    files = example_tests(
        module,
        [
            'slug("Hello World") -> "hello-world"',
            "slug('x') returns 0.5",
            "other(1) -> 2",  # not the module's interface
            "slug(1) -> a slug",  # not a literal
            "slug(abc) -> 'abc'",  # prose: an unquoted string
            "Input: x",
            "slug('t') -> true",  # JSON words are read as Python's
            "slug('n') -> [null, false]",
            "slug('i') -> Infinity",  # no Python literal for it
        ],
    )
    text = files["test_m_examples.py"]
    assert "assert slug('t') == True" in text and "assert slug('n') == [None, False]" in text
    assert "Infinity" not in text and "inf" not in text
    assert 'assert slug("Hello World") == "hello-world"' in text
    assert "assert slug('x') == pytest.approx(0.5)" in text and "import pytest" in text
    assert "other(" not in text and "a slug" not in text and "abc" not in text
    assert "from m import slug" in text
    compile(text, "t.py", "exec")


def test_javascript_examples_use_deep_equality_and_the_modules_export() -> None:
    module = _module("javascript", "const sumTo = (n) => {", name="sum_to")
    files = example_tests(
        module,
        [
            "sumTo(3) ==> 6",
            "sumTo(0) -> 'none'",
            "sumTo(1) -> x",
            "sumTo(abc) -> 1",  # prose
            "sumTo(['a,b', [1, 2]], 'c') -> ['x']",
        ],
    )
    text = files["sum_to.examples.test.js"]
    assert "const { sumTo } = require('./sum_to');" in text
    assert "assert.deepStrictEqual(sumTo(3), 6);" in text
    assert 'assert.deepStrictEqual(sumTo(0), "none");' in text
    assert "sumTo(1)" not in text and "abc" not in text
    assert """assert.deepStrictEqual(sumTo(['a,b', [1, 2]], 'c'), ["x"]);""" in text
    assert is_example_test("spec example 1: sumTo(3)")


def test_no_examples_no_file_and_java_is_left_to_the_designer() -> None:
    assert example_tests(_module("python", "def f(x)"), []) == {}
    assert example_tests(_module("java", "int f(int x)"), ["f(1) -> 2"]) == {}


def test_generated_names_are_recognised_and_designer_names_are_not() -> None:
    assert is_example_test("test_m_examples.test_example_2")
    assert not is_example_test("test_m.test_example_2")
    assert not is_example_test("example 1")


@pytest.mark.parametrize(
    ("language", "example", "designed"),
    [
        ("python", "test_m_worked_examples.test_total", "test_m.test_total"),
        ("python", "test_m_worked_examples", "test_m"),  # the file's load error
        ("java", "CartWorkedExamplesTest.testTotal()", "CartTest.testTotal()"),
        ("javascript", "cart > spec example 1: total()", "cart > total"),
    ],
)
def test_each_language_names_its_example_tests(language: str, example: str, designed: str) -> None:
    layout = layout_for(language)
    assert layout.example_test(example) and not layout.example_test(designed)
    assert is_example_test(example) and not is_example_test(designed)


def test_only_examples_the_user_wrote_count_as_stated() -> None:
    request = "Write slugify(text). Example: slugify(\"Hello  World\") returns 'hello-world'."
    examples = [
        'slugify("Hello World") -> "hello-world"',  # the user's (spacing and quotes aside)
        "slugify('!@#') -> '-'",  # the analyst's invention
        'slugify("Hello World") -> "Hello-World"',  # the user's call, another result
    ]
    assert stated_in(examples, request) == [examples[0]]


def test_a_stated_result_written_differently_is_compared_by_value() -> None:
    request = (
        "wordCount(text) counts words. Example: wordCount('Hi hi, you!') returns "
        '{"hi": 2, "you": 1}. Also add(2, 3) gives 5. is_odd(3) is True.'
    )
    examples = [
        "wordCount('Hi hi, you!') -> { hi: 2, you: 1 }",
        "wordCount('Hi hi, you!') -> { hi: 1, you: 1 }",
        "add(2, 3) -> 5.0",
        "add(2, 3) -> 6",
        "is_odd(3) -> true",
        "is_odd(3) -> None",
    ]
    assert stated_in(examples, request) == [examples[0], examples[2], examples[4]]


def test_javascript_example_values_are_read_by_the_parser() -> None:
    # a scanner swapped quotes to make JSON: a double quote inside broke it, bare keys too
    module = _module("javascript", "f(x)", name="f")
    files = example_tests(module, ["f('say \"hi\"') -> {ok: true}", "f(.5) -> 'it\\'s'"])
    text = files["f.examples.test.js"]
    assert """assert.deepStrictEqual(f('say "hi"'), {"ok": true});""" in text
    assert """assert.deepStrictEqual(f(.5), "it's");""" in text


def test_a_step_of_a_scenario_is_not_a_stated_example() -> None:
    # the tally request: the analyst read "after add(4), add(10) and undo(), score() is 4"
    # as add(4) -> 4, a protected test of a module-level add() that every draft failed
    request = (
        "A class Tally: add(points) adds points, undo() takes back the last add, score() "
        "returns the score. Example: after add(4), add(10) and undo(), score() is 4."
    )
    assert stated_in(["add(4) -> 4", "add(10) -> 4", "add(4) -> 10"], request) == []


def test_a_stated_result_must_follow_its_call() -> None:
    request = (
        "Write add(a, b) that returns the sum, e.g. add(2, 3) returns 5 and add(0, 1) "
        "returns 1. neg(0) raises ValueError; the list has 5 items.\n>>> add(1, 1)\n2\n"
    )
    examples = [
        "add(2, 3) -> 5",
        "add(0, 1) -> 5",  # 5 is written, but as add(2, 3)'s result
        "neg(0) -> raises ValueError",
        "neg(0) -> raises KeyError",
        "add(1, 1) -> 2",  # a doctest: the result alone on the next line
    ]
    assert stated_in(examples, request) == [examples[0], examples[2], examples[4]]
