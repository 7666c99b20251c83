"""The request's sentences as numbered rules, traced checks, and what it leaves open."""

from __future__ import annotations

from codeproof.contract.rules import invariants, open_questions, render, rules, traced

REQUEST = (
    "Write a Python module roman.py with to_roman(n) and from_roman(s). "
    'to_roman(4) returns "IV". Lower case numerals are invalid; never accept them.'
)


def test_each_sentence_is_a_numbered_rule_and_code_lines_are_not() -> None:
    assert render(rules(REQUEST)) == (
        "R1: Write a Python module roman.py with to_roman(n) and from_roman(s).\n"
        'R2: to_roman(4) returns "IV".\n'
        "R3: Lower case numerals are invalid;\n"
        "R4: never accept them."
    )
    prompt = 'def longest(xs: list) -> str:\n    """ Return the longest one.\n'
    prompt += '    >>> longest([])\n    """\n'
    assert [r.text for r in rules(prompt)] == ["Return the longest one."]


def test_tests_citing_rules_are_counted_per_rule() -> None:
    tests = {
        "test_roman.py": "def test_four():  # R2\n    assert to_roman(4) == 'IV'\n"
        "def test_lower():\n    # R3, R9 (no such rule)\n    ...\n",
        "roman.test.js": "test('x', () => {}); // R2\n",
    }
    assert traced(tests, rules(REQUEST)) == {"R2": 2, "R3": 1}


def test_an_open_request_gets_questions_and_assumptions_a_closed_one_none() -> None:
    gaps = open_questions("make me a password strength checker", [])
    assert [g.question.split(":")[0] for g in gaps] == [
        "Could you give one or two examples",
        "What should happen with invalid or empty input",
    ]
    assert all(g.assumption for g in gaps)
    closed = "check(pw) returns 'weak' for 'abc'; an empty password raises ValueError"
    assert open_questions(closed, ["check('abc') -> 'weak'"]) == []


def test_an_example_with_empty_input_leaves_only_invalid_input_open() -> None:
    """ranges.py at 8248f1c: "compress([]) returns \"\"" was stated, yet the intake asked
    what empty input should do."""
    words = "compress(numbers) joins runs of three or more numbers as first-last"
    for stated in ('compress([]) -> ""', "wrapText('', 5) -> []", "f({}, 1) -> 0"):
        [gap] = open_questions(words, [stated])
        assert gap.question.startswith("What should happen with invalid input:"), stated
        assert "invalid input" in gap.assumption and "empty" not in gap.assumption
    for stated in ("compress([1, 2]) -> '1,2'", "f() -> []", "f(1) -> ''", "f('->', [1]) -> 0"):
        [gap] = open_questions(words, [stated])
        assert gap.question.startswith("What should happen with invalid or empty input"), stated


def test_only_rules_for_every_input_are_invariants() -> None:
    stated = rules(
        "Return the longest string. Return None in case the input list is empty. "
        "The result is never longer than 80 characters. For any list the output is sorted."
    )
    assert [r.id for r in invariants(stated)] == ["R3", "R4"]
    assert invariants(rules(REQUEST)) == [rules(REQUEST)[-1]]  # "never accept them"
