"""Mutated probe inputs: small type-aware changes of the probe calls' literal arguments."""

from __future__ import annotations

import ast
import json

import pytest

from codeproof.choosing.mutation import MAX_CALL, mutants
from codeproof.choosing.selection import choose
from codeproof.core.types import Module, TestCase, TestReport
from codeproof.languages.java.mutants import java_mutants
from codeproof.languages.javascript.mutants import javascript_mutants
from codeproof.languages.python.mutants import python_mutants
from codeproof.toolchains.client import ToolchainClient


def _args(call: str) -> list[object]:
    node = ast.parse(call, mode="eval").body
    assert isinstance(node, ast.Call)
    return [ast.literal_eval(a) for a in [*node.args, *(k.value for k in node.keywords)]]


def test_python_numbers_move_by_one_flip_sign_and_reach_zero() -> None:
    assert sorted(_args(m)[0] for m in python_mutants("f(7)")) == [-7, 0, 6, 8]  # type: ignore[type-var]
    assert python_mutants("f(True)") == ["f(False)"]
    assert {*python_mutants("f(2.5)")} == {"f(3.0)", "f(2.0)", "f(-2.5)", "f(0.0)"}


def test_python_each_argument_is_changed_alone_and_keywords_are_kept() -> None:
    out = python_mutants("f([1, 2, 3], 'ab', k=4)")
    for call in out:
        items, text, k = _args(call)
        changed = (items != [1, 2, 3]) + (text != "ab") + (k != 4)
        assert changed == 1, call
        assert ", k=" in call
    lists = [_args(c)[0] for c in out if _args(c)[0] != [1, 2, 3]]
    assert [] in lists and [3, 2, 1] in lists
    assert any(len(x) == 2 for x in lists) and any(len(x) == 4 for x in lists)  # type: ignore[arg-type]
    texts = {_args(c)[1] for c in out}
    assert {"", "AB", "abb", "ba"} <= texts


def test_python_digits_in_strings_change_to_other_digits() -> None:
    original = "06-04-2020"
    out = [_args(m)[0] for m in python_mutants(f"valid({original!r})")]
    diffs = [
        [(a, b) for a, b in zip(s, original, strict=True) if a != b]
        for s in out
        if isinstance(s, str) and len(s) == len(original)
    ]
    assert any(len(d) == 1 and d[0][0].isdigit() and d[0][1].isdigit() for d in diffs)


@pytest.mark.parametrize("call", ["f(x)", "m.f(1)", "f(*[1])", "f(**{'a': 1})", "f(1", "1 + 2"])
def test_python_calls_that_are_not_literal_calls_get_none(call: str) -> None:
    assert python_mutants(call) == []


def test_javascript_literals_go_through_json() -> None:
    out = javascript_mutants("sortThird([5, 6, 3], 'a-b', true)")
    assert 'sortThird([], "a-b", true)' in out
    assert 'sortThird([5, 6, 3], "a-b", false)' in out
    for call in out:
        assert call.startswith("sortThird(") and call.endswith(")")
        json.loads("[" + call[len("sortThird(") : -1] + "]")  # valid JSON, so valid JS


@pytest.mark.parametrize("call", ["f(x)", "f(1) + 1", "f(undefined)", "f(NaN)", "o.f(1)"])
def test_javascript_calls_beyond_json_get_none(call: str) -> None:
    assert javascript_mutants(call) == []


def test_javascript_escapes_and_bare_keys_are_read_by_the_parser() -> None:
    # a scanner could only pass JSON through: escaped strings and bare keys got nothing
    out = javascript_mutants("f('it\\'s')")
    assert 'f("IT\'S")' in out and 'f("")' in out
    assert all(json.loads(c[2:-1]) != "it's" for c in out)
    assert javascript_mutants("f({a: 1}, `x`)")[:2] == ['f({}, "x")', 'f({}, "x")']


def test_mutants_take_turns_skip_known_calls_and_stop_at_the_limit() -> None:
    calls = ["f(1)", "f(2)", "g('x')"]
    out = mutants("python", calls, 6)
    assert len(out) == 6 and len(set(out)) == 6
    assert not set(out) & set(calls)  # f(1) + 1 is f(2): already probed
    assert {c.split("(")[0] for c in out[:3]} == {"f", "g"}  # one of each call's in turn
    assert mutants("python", calls, 6) == out  # deterministic
    assert mutants("kotlin", calls) == [] and mutants("python", calls, 0) == []


def test_long_mutants_are_dropped() -> None:
    long_list = "f(" + repr(list(range(120))) + ")"
    assert all(len(c) <= MAX_CALL for c in mutants("python", [long_list]))
    assert mutants("python", [long_list]) != []  # the shorter mutants (e.g. []) remain


JS_MODULE = Module(
    name="half", purpose="Half of n.", language="javascript", public_interface="half(n)"
)
JS_TESTS = {
    "half.test.js": "const half = require('./half');\n"
    "test('half', () => { expect(half(4)).toBe(2); });\n"
}
JS_CANDIDATES = [
    {"half.js": "function half(n) { return Math.abs(n) / 2; }\nmodule.exports = half;\n"},
    {"half.js": "function half(n) { return n / 2; }\nmodule.exports = half;\n"},
    {"half.js": "const half = (n) => n * 0.5;\nmodule.exports = half;\n"},
]


def test_javascript_mutants_break_a_tie_in_the_sandbox(
    javascript_toolchain: ToolchainClient,
) -> None:
    def green(files: dict[str, str], tests: dict[str, str]) -> TestReport:
        return TestReport(total=1, passed=1, tests=[TestCase(name="half", outcome="passed")])

    choice = choose(
        green,
        JS_CANDIDATES,
        JS_TESTS,
        JS_MODULE,
        run_program=lambda files, args, timeout: javascript_toolchain.run(
            files, args, timeout_s=timeout
        ),
    )
    # half(4) alone ties them; its mutants include negative numbers, where abs() is alone
    assert choice.output_agreement == [2, 2, 2]
    assert choice.mutants > 0
    assert choice.mutant_agreement[0] < choice.mutant_agreement[1] == choice.mutant_agreement[2]
    assert choice.index == 1


def test_java_literals_change_token_by_token_and_lists_by_one_element() -> None:
    out = java_mutants('new Account(100).f(Arrays.asList(1, 2), "ab", 2.5, 10L, true)')
    assert all(c.startswith("new Account(100).f(") for c in out)  # the receiver is kept
    assert 'new Account(100).f(Arrays.asList(-1, 2), "ab", 2.5, 10L, true)' in out
    assert 'new Account(100).f(Arrays.asList(2), "ab", 2.5, 10L, true)' in out
    assert 'new Account(100).f(Arrays.asList(1, 1, 2), "ab", 2.5, 10L, true)' in out
    assert 'new Account(100).f(Arrays.asList(1, 2), "ba", 2.5, 10L, true)' in out
    assert 'new Account(100).f(Arrays.asList(1, 2), "ab", -2.5, 10L, true)' in out
    assert 'new Account(100).f(Arrays.asList(1, 2), "ab", 2.5, 11L, true)' in out
    assert 'new Account(100).f(Arrays.asList(1, 2), "ab", 2.5, 10L, false)' in out
    assert java_mutants("f(new int[]{7})") == [
        "f(new int[]{8})", "f(new int[]{6})", "f(new int[]{-7})", "f(new int[]{0})",
        "f(new int[]{})", "f(new int[]{7, 7})",
    ]  # fmt: skip


@pytest.mark.parametrize("call", ["f(x)", "f(1) + 1", "f("])
def test_java_non_calls_get_no_mutants_of_their_own(call: str) -> None:
    assert java_mutants(call) == []


def test_java_literals_are_read_by_the_parser() -> None:
    # a scanner left escaped strings alone, read octal 010 as ten and hex as no number
    escaped = java_mutants('f("a\\"b")')
    assert 'f("A\\"B")' in escaped and 'f("")' in escaped
    assert java_mutants("f(010)") == ["f(9)", "f(7)", "f(-8)", "f(0)"]
    assert java_mutants("f(-0x10L)") == ["f(-15L)", "f(-17L)", "f(16L)", "f(0L)"]
    assert java_mutants('f(g("x)"), 1)')[-4:] == ['f(g("x)"), 2)', 'f(g("x)"), 0)',
                                                   'f(g("x)"), -1)', 'f(g("x)"), 0)']  # fmt: skip


JAVA_MODULE = Module(name="Solution", purpose="p", language="java", public_interface="int f(int x)")
JAVA_TESTS = {
    "SolutionTest.java": "import org.junit.jupiter.api.Test;\n"
    "import static org.junit.jupiter.api.Assertions.*;\n"
    "class SolutionTest {\n"
    "    @Test\n    void two() { assertEquals(4, new Solution().f(2)); }\n"
    "}\n"
}


@pytest.mark.docker
def test_java_mutants_break_a_tie_with_real_javac(java_toolchain: ToolchainClient) -> None:
    candidates = [
        {"Solution.java": f"public class Solution {{\n    public int f(int x) {{ {body} }}\n}}\n"}
        for body in ("return Math.abs(x) * 2;", "return x * 2;", "return x + x;")
    ]
    choice = choose(
        lambda files, tests: java_toolchain.run_tests(files, tests, 60),
        candidates,
        JAVA_TESTS,
        JAVA_MODULE,
        run_program=lambda files, args, timeout: java_toolchain.run(files, args, timeout_s=timeout),
    )
    assert [r.passed for r in choice.reports] == [1, 1, 1]
    assert choice.output_agreement == [2, 2, 2]
    assert choice.mutants == 4  # f(3), f(1), f(-2), f(0)
    assert choice.mutant_agreement[0] < choice.mutant_agreement[1] == choice.mutant_agreement[2]
    assert choice.index == 1
