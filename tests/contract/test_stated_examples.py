"""Examples a request states, in every common notation, read as ``call -> expected``."""

from __future__ import annotations

import dataclasses
import re

import pytest

from codeproof.choosing.examples import example_tests, is_example_test
from codeproof.contract.examples import stated_assertions, stated_examples
from codeproof.contract.spec_examples import INVENTED_KEPT, fewer_invented, module_examples
from codeproof.core.types import Module
from codeproof.languages import registry
from codeproof.languages.notations import Notations, Written
from inproc import run_tests


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("assert to_roman(4) == 'IV'", "to_roman(4) -> 'IV'"),
        ("to_roman(4) -> 'IV'", "to_roman(4) -> 'IV'"),
        ("to_roman(4) => 'IV'", "to_roman(4) -> 'IV'"),
        ("For example, to_roman(4) returns 'IV'.", "to_roman(4) -> 'IV'"),
        ("to_roman(4) should return 'IV'", "to_roman(4) -> 'IV'"),
        ("`to_roman(4)` should be `'IV'`", "to_roman(4) -> 'IV'"),
        ("to_roman(4) gives 'IV', and more", "to_roman(4) -> 'IV'"),
        (">>> to_roman(4)\n'IV'", "to_roman(4) -> 'IV'"),
        ("For n = 4 the output should be 'IV'", "to_roman(4) -> 'IV'"),
        ('to_roman([1, 2]) == ["I", "II"]', 'to_roman([1, 2]) -> ["I", "II"]'),
        ("to_roman(0) raises ValueError", "to_roman(0) -> raises ValueError"),
        ("to_roman(-1) should throw a RangeError.", "to_roman(-1) -> raises RangeError"),
        ("For 4 the output should be 'IV' (four).", "to_roman(4) -> 'IV'"),
        ("- Given 40, it returns 'XL'.", "to_roman(40) -> 'XL'"),
        ("so that to_roman(4) === 'IV' holds", "to_roman(4) -> 'IV'"),
        ('assertEquals("IV", to_roman(4));', 'to_roman(4) -> "IV"'),
        ('Assertions.assertEquals("IV", to_roman(4));', 'to_roman(4) -> "IV"'),
        ("assert.strictEqual(to_roman(4), 'IV');", "to_roman(4) -> 'IV'"),
        ("assert.deepStrictEqual(to_roman([4]), ['IV'], 'four');", "to_roman([4]) -> ['IV']"),
        ("expect(to_roman(4)).toBe('IV');", "to_roman(4) -> 'IV'"),
        ("expect(to_roman(4)) .toEqual( 'IV' )", "to_roman(4) -> 'IV'"),
        (
            "print(to_roman(4))  # IV would be a name, 'IV' is not\nprint(to_roman(4))  # 'IV'",
            "to_roman(4) -> 'IV'",
        ),
        ("console.log(to_roman(4)); // => 'IV'", "to_roman(4) -> 'IV'"),
        ('System.out.println(to_roman(4)); // "IV"', 'to_roman(4) -> "IV"'),
        ('assertEquals("IV", to_roman(4), "four");', 'to_roman(4) -> "IV"'),  # JUnit 5
        ("to_roman(4)  // returns 'IV'", "to_roman(4) -> 'IV'"),
        ("to_roman(4)  # prints: 'IV'", "to_roman(4) -> 'IV'"),
        ("to_roman(0) -> ValueError", "to_roman(0) -> raises ValueError"),
        ("to_roman(0) => throws `RangeError`.", "to_roman(0) -> raises RangeError"),
        (
            "assertThrows(IllegalArgumentException.class, () -> { to_roman(0); });",
            "to_roman(0) -> raises IllegalArgumentException",
        ),
        ("assert.throws(() => to_roman(0), RangeError);", "to_roman(0) -> raises RangeError"),
        ("expect(() => to_roman(0)).toThrow(RangeError);", "to_roman(0) -> raises RangeError"),
        (
            "with pytest.raises(ValueError, match='zero'):\n    to_roman(0)",
            "to_roman(0) -> raises ValueError",
        ),
    ],
)
def test_each_notation_is_read(text: str, expected: str) -> None:
    assert stated_examples(text, ["to_roman"], {"to_roman": ["n"]}) == [expected]


def test_a_language_added_at_run_time_brings_its_own_notation() -> None:
    # each language lists its notations; the request is read with every known one
    spec = dataclasses.replace(
        registry.language_for("python"),
        name="lua-like",
        aliases=frozenset(),
        notations=Notations(
            assertions=(Written(re.compile(r"(?<![\w.])(?P<call>check_eq)\("), "first"),),
            printers=("say",),
            line_comment="--",
        ),
    )
    text = "check_eq(to_roman(4), 'IV')\nsay(to_roman(9)) -- 'IX'"
    params = {"to_roman": ["n"]}
    assert stated_examples(text, ["to_roman"], params) == []
    registry.add(spec)
    try:
        assert stated_examples(text, ["to_roman"], params) == [
            "to_roman(4) -> 'IV'",
            "to_roman(9) -> 'IX'",
        ]
    finally:
        registry.discard("lua-like")


def test_several_examples_in_one_paragraph_and_a_table() -> None:
    text = (
        "Write roman.py with to_roman(n) and from_roman(s). to_roman(4) returns 'IV' and "
        "from_roman('IX') returns 9; from_roman('') raises ValueError.\n\n"
        "| n | result |\n|---|---|\n| 40 | 'XL' |\n| 90 | 'XC' |\n"
    )
    params = {"to_roman": ["n"], "from_roman": ["s"]}
    assert stated_examples(text, ["to_roman", "from_roman"], params) == [
        "to_roman(4) -> 'IV'",
        "to_roman(40) -> 'XL'",
        "to_roman(90) -> 'XC'",
        "from_roman('IX') -> 9",
        "from_roman('') -> raises ValueError",
    ]


def test_calls_listed_together_share_what_follows_them() -> None:
    text = "to_roman(-1), to_roman(0) or to_roman(4000) throw a RangeError; to_roman(9) is 'IX'."
    assert stated_examples(text, ["to_roman"]) == [
        "to_roman(-1) -> raises RangeError",
        "to_roman(0) -> raises RangeError",
        "to_roman(4000) -> raises RangeError",
        "to_roman(9) -> 'IX'",
    ]


def test_a_table_whose_header_names_the_function_and_code_spans_of_text() -> None:
    text = (
        "| text given to parseCsv | result |\n| --- | --- |\n"
        '| `a,b\\n1,2` | `[["a","b"],["1","2"]]` |\n'
        '| `"say ""hi""",ok` | `[["say \\"hi\\"","ok"]]` |\n'
        '| `"a","b"` | `[["a","b"]]` |\n'
        '| `7` | `[["7"]]` |\n'
        '| a,,b | `[["a","","b"]]` |\n'  # text outside a code span: not read
    )
    params = {"parseCsv": ["text"], "toCsv": ["rows"], "join": ["a", "b"]}
    assert stated_examples(text, ["parseCsv", "toCsv"], params) == [
        'parseCsv("a,b\\n1,2") -> [["a","b"],["1","2"]]',
        'parseCsv("\\"say \\"\\"hi\\"\\"\\",ok") -> [["say \\"hi\\"","ok"]]',
        'parseCsv("\\"a\\",\\"b\\"") -> [["a","b"]]',
        'parseCsv(7) -> [["7"]]',
    ]
    two = text.replace("parseCsv", "join")
    assert stated_examples(two, ["join"], params) == []  # a table gives one argument


@pytest.mark.parametrize(
    "text",
    [
        "round(find_zero([1, 2]), 2) -> -0.5",  # the result is the outer call's
        'fruit("5 apples", 19) ->19 - 5 - 6 = 8',  # working, not a result
        "double([1, 3]) == 1 + 9 = 10",
        "sort_array([1, 0]) [0, 1]",  # no word or arrow between call and value
        'find_max(["bb"]) == ""bb"',  # a typo: the value runs into letters
        "Call find_zero(xs) with the list; it returns the zero.",  # no literal arguments
    ],
)
def test_what_is_not_an_example_is_not_read(text: str) -> None:
    names = ["find_zero", "fruit", "double", "sort_array", "find_max"]
    assert stated_examples(text, names) == []


@pytest.mark.parametrize(
    "text",
    [
        "assertEquals(to_roman(4), x);",  # a variable, not a literal
        "assert.strictEqual(to_roman(n), 'IV');",
        "expect(to_roman(4)).toThrow();",
        "print(to_roman(4))  # the numeral",
        "log(to_roman(4))  # 'IV'",  # an argument of some other call
        "to_roman(4)  # IV",
        "expect(() => to_roman(0)).toThrow();",  # no error named
        "assert.throws(() => { to_roman(0); other(); }, RangeError);",
        "to_roman(1) and to_roman(2) return strings",
    ],
)
def test_test_code_and_comments_that_state_no_literal_result_are_not_read(text: str) -> None:
    assert stated_examples(text, ["to_roman"], {"to_roman": ["n"]}) == []


def test_a_module_keeps_only_the_examples_of_its_interface() -> None:
    words = "store.py: add(2, 3) returns 5. report.py: render([1]) returns '1'."
    spec_examples = ["add(2, 3) -> 5", "add(1, 1) -> 2"]  # the second is the analyst's
    assert module_examples(words, spec_examples, "add(a, b) -> int") == ["add(2, 3) -> 5"]
    assert module_examples(words, [], "def render(rows)") == ["render([1]) -> '1'"]


SLUGIFY_WORDS = (
    'slugify(title, maxLength) builds URL slugs. For "Hello, World!" the output should be '
    '"hello-world"; it is cut after the last whole word that fits (for "The quick brown fox" '
    'with maxLength 12 the output should be "the-quick").'
)


def test_the_spec_examples_of_another_module_are_not_this_ones() -> None:
    # js-calculator at 9283193: the spec's `evaluate(..) -> ..` examples, which the user
    # stated, became example tests of the tokenizer (0/17 for every draft)
    words = 'tokenize("1+2") gives ["1", "+", "2"].\n\n    evaluate("2 + 3 * 4") === 14\n'
    spec_examples = ['tokenize("1+2") -> ["1", "+", "2"]', 'evaluate("2 + 3 * 4") -> 14']
    assert module_examples(words, spec_examples, "tokenize(expr)") == spec_examples[:1]
    assert module_examples(words, spec_examples, "evaluate(expr)") == spec_examples[1:]


def test_an_interface_with_overloads_keeps_the_examples_stated_by_their_input() -> None:
    # js-slugify: the analyst's two lines `slugify(title, maxLength)` and `slugify(title)`
    # made two names of one, and no example stated by its input alone was read
    interface = "slugify(title, maxLength) -> string\nslugify(title) -> string"
    assert module_examples(SLUGIFY_WORDS, [], interface) == [
        'slugify("Hello, World!") -> "hello-world"',
        'slugify("The quick brown fox", 12) -> "the-quick"',
    ]


def test_the_spec_keeps_every_stated_example_and_a_few_invented_ones() -> None:
    # js-slugify: a runaway analysis listed 24 examples, most breaking the length rule
    spec_examples = [
        "slugify('Hello, World!') -> 'hello-world'",
        *(f"slugify('The quick brown fox', {n}) -> 'the-quick'" for n in (10, 5, 4, 3, 2)),
        "slugify('The quick brown fox', 12) -> 'the-quick'",
    ]
    kept = fewer_invented(spec_examples, SLUGIFY_WORDS, ["slugify(title, maxLength)"])
    assert kept == [*spec_examples[: 1 + INVENTED_KEPT], spec_examples[-1]]


def test_an_invented_example_giving_a_stated_call_another_result_is_dropped() -> None:
    words = 'For "Hello, World!" the output should be "hello-world".'
    spec_examples = [
        "slugify('Hello, World!') -> 'hello-world!'",  # the analyst's misreading
        "slugify('a b') -> 'a-b'",
        "slugify('Hello, World!') -> 'hello-world'",
    ]
    assert fewer_invented(spec_examples, words, ["slugify(title)"]) == spec_examples[1:]


def test_one_example_stated_twice_is_one_example_whatever_its_quotes() -> None:
    # py-roman: the analyst's 'MCMXCIV' and the user's "MCMXCIV" made 8 example tests of 4
    words = 'to_roman(1994) returns "MCMXCIV", and from_roman("xiv") returns 14.'
    spec_examples = ["to_roman(1994) -> 'MCMXCIV'", "from_roman('xiv') -> 14"]
    interface = "to_roman(n), from_roman(s)"
    assert module_examples(words, spec_examples, interface) == spec_examples
    # a different value is a different example
    words = "from_roman('xiv') returns 14, and from_roman(\"xiv\") returns 14.0."
    other = module_examples(words, [], "from_roman(s)")
    assert other == ["from_roman('xiv') -> 14", 'from_roman("xiv") -> 14.0']


def test_stated_errors_become_checks_that_catch_the_wrong_error() -> None:
    module = Module(name="roman", purpose="", language="python", public_interface="to_roman(n)")
    tests = example_tests(module, ["to_roman(0) -> raises ValueError", "to_roman(1) -> 'I'"])
    right = "def to_roman(n):\n    if n <= 0:\n        raise ValueError(n)\n    return 'I' * n\n"
    wrong = right.replace("ValueError", "TypeError")
    assert run_tests({"roman.py": right}, tests).green
    report = run_tests({"roman.py": wrong}, tests)
    assert (report.passed, report.failed) == (1, 1)


def test_an_assert_wrapping_the_call_is_kept_word_for_word_and_run() -> None:
    text = (
        "Find the shared elements of two tuples.\n"
        "assert set(shared((3, 4, 5, 6), (5, 7, 4, 10))) == set((4, 5))\n"
        "assert math.isclose(ratio(1, 3), 0.333, abs_tol=0.001)\n"
        "assert ratio(6, 3) == 2.0\n"  # a plain example: read as call -> value
        "assert mystery(shared((1,), (1,)))\n"  # needs a name nobody defines
    )
    statements = stated_assertions(text, ["shared", "ratio"])
    assert statements == [
        "assert set(shared((3, 4, 5, 6), (5, 7, 4, 10))) == set((4, 5))",
        "assert math.isclose(ratio(1, 3), 0.333, abs_tol=0.001)",
        "assert mystery(shared((1,), (1,)))",
    ]
    interface = "shared(a, b), ratio(a, b)"
    examples = module_examples(text, [], interface)
    assert examples[0] == "ratio(6, 3) -> 2.0" and examples[1:] == statements
    module = Module(name="sets", purpose="p", language="python", public_interface=interface)
    tests = example_tests(module, examples)
    stated = tests["test_sets_stated_examples.py"]
    assert "import math\n" in stated and "from sets import ratio, shared\n" in stated
    assert "mystery" not in stated  # it could only fail with a NameError
    right = "def shared(a, b):\n    return tuple(set(a) & set(b))\n\n\n"
    right += "def ratio(a, b):\n    return a / b\n"
    wrong = right.replace("set(a) & set(b)", "set(a) | set(b)")
    outcomes = {t.name: t.outcome for t in run_tests({"sets.py": right}, tests).tests}
    assert set(outcomes.values()) == {"passed"} and len(outcomes) == 3
    report = run_tests({"sets.py": wrong}, tests)
    failed = sorted(t.name for t in report.tests if t.outcome != "passed")
    assert failed == ["test_sets_stated_examples.test_example_1"]
    assert all(is_example_test(name) for name in outcomes)  # protected like examples


def test_the_steps_of_a_scenario_state_no_results_of_their_own() -> None:
    text = (
        "Example: after add(4), add(10) and undo(), total(1) is 4. Then f(1) returns 2 "
        "and f(2) returns 4. Write f(x) that doubles, so f(3) returns 6."
    )
    assert stated_examples(text, ["add", "total", "f"]) == ["f(1) -> 2", "f(2) -> 4", "f(3) -> 6"]


def test_an_example_stated_by_its_input_alone_is_the_only_functions() -> None:
    # js-slugify: "For X the output should be Y" names no function: the request's only one
    text = (
        "I need slugify.js exporting slugify(title, maxLength).\n"
        '- For "Hello, World!" the output should be "hello-world".\n'
        '- maxLength is optional (for "The quick brown fox" with maxLength 12 the output '
        'should be "the-quick").\n'
        '- For "  ok  " the output is "ok", and for "x" with width 3 the output is "x".'
    )
    assert stated_examples(text, ["slugify"], {"slugify": ["title", "maxLength"]}) == [
        'slugify("Hello, World!") -> "hello-world"',
        'slugify("The quick brown fox", 12) -> "the-quick"',
        'slugify("  ok  ") -> "ok"',  # "width" is not its next parameter: not read
    ]
    # two functions written in the request: whose input it is, nobody can tell
    both = text + "\nAlso unslug(slug) reverses it."
    assert stated_examples(both, ["slugify"], {"slugify": ["title", "maxLength"]}) == []
    assert stated_examples("For example, the output is 5.", ["f"], {"f": ["x"]}) == []


def test_a_table_with_a_result_column_per_function_and_columns_of_text() -> None:
    """java-card-numbers: a table of card numbers with one column per function, its
    cells written without quotes, was read as no example at all, so the drafts that
    all rejected "4111 1111 1111 1111" set aside the tests that held them to it."""
    text = (
        "Three methods isValid(number), brand(number) and mask(number).\n\n"
        "| number | isValid | brand |\n|---|---|---|\n"
        "| 4111 1111 1111 1111 | true | VISA |\n"
        "| 5500-0000-0000-0004 | false | MASTER CARD |\n"
    )
    params = {"isValid": ["number"], "brand": ["number"], "mask": ["number"]}
    assert stated_examples(text, ["isValid", "brand", "mask"], params) == [
        'isValid("4111 1111 1111 1111") -> true',
        'isValid("5500-0000-0000-0004") -> false',
        'brand("4111 1111 1111 1111") -> "VISA"',
        'brand("5500-0000-0000-0004") -> "MASTER CARD"',
    ]


def test_a_table_cell_stating_an_error_and_a_column_mixing_text_and_values() -> None:
    text = (
        "| n | to_roman |\n|---|---|\n| 4 | IV |\n| 0 | raises ValueError |\n\n"
        "| s | from_roman |\n|---|---|\n| IX | 9 |\n| nine | 9 |\n| X | ten |\n"
    )
    params = {"to_roman": ["n"], "from_roman": ["s"]}
    assert stated_examples(text, ["to_roman", "from_roman"], params) == [
        'to_roman(4) -> "IV"',
        "to_roman(0) -> raises ValueError",
        'from_roman("IX") -> 9',
        'from_roman("nine") -> 9',
    ]
