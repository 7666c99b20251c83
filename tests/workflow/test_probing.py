"""Probes: calls found in tests, outputs compared across candidates (MBR-exec)."""

from __future__ import annotations

import json

import pytest

from codeproof.choosing.examples import interface_names
from codeproof.choosing.probing import MARK, agreement, examples_met, probe, probe_calls
from codeproof.choosing.selection import choose, judge
from codeproof.core.types import Module, ProgramRun, TestCase, TestReport
from codeproof.languages.java.probe import BROKEN as JAVA_BROKEN
from codeproof.languages.java.probe import (
    displayed_value,
    example_met,
    java_calls,
    java_example_checks,
    java_value,
)
from codeproof.languages.javascript.probe import javascript_calls
from codeproof.languages.python.probe import BROKEN as PY_BROKEN
from codeproof.languages.python.probe import python_calls
from codeproof.toolchains.client import ToolchainClient

PY_TESTS = """
import pytest
from m import f, g

def test_a():
    assert f(1, [2, 3]) == 5
    assert m.f(x=1, ys=[]) == 1
    assert f(1, [2, 3]) == 6  # the same call again: one probe

def test_b():
    with pytest.raises(ValueError):
        g("x")
    assert f(some_var, [1]) == 2  # not a literal: no probe
    assert h(1) == 1  # not in the interface
"""

JS_TESTS = """
const { f } = require('./m');
test('a', () => {
  assert.strictEqual(f("a)b", [1, {k: 2}]), 3);
  assert.strictEqual(f(x, 1), 2);
  assert.deepStrictEqual(f(null, true), undefined);
  assert.ok(obj.f(1));
});
"""


def test_interface_names() -> None:
    module = Module(
        name="m", purpose="p", language="python", public_interface="def f(x) -> int\ng(y)"
    )
    assert interface_names(module) == {"f", "g"}


def test_python_calls_take_literal_calls_of_the_interface_once() -> None:
    assert python_calls({"test_m.py": PY_TESTS, "bad.py": "def ("}, ["f", "g"]) == [
        "f(1, [2, 3])",
        "f(x=1, ys=[])",
        "g('x')",
    ]


def test_javascript_calls_take_literal_calls_of_the_interface() -> None:
    assert javascript_calls({"m.test.js": JS_TESTS}, ["f"]) == [
        'f("a)b", [1, {k: 2}])',
        "f(null, true)",
    ]


def test_javascript_calls_in_comments_and_strings_are_no_probes() -> None:
    # a scanner took calls from comments and strings and stopped at a template's ")"
    source = (
        "// f(9) is wrong\nconst s = 'f(8)';\n"
        "test('t', () => { assert.equal(f(`a)b`, /* one */ 1), 2); });\n"
    )
    assert javascript_calls({"m.test.js": source}, ["f"]) == ["f(`a)b`, /* one */ 1)"]


JAVA_TESTS = """
class MTest {
    private final M m = new M();
    @Test
    void f() { assertEquals(3, m.f("a)b", Arrays.asList(1, 2), 'c', -1.5e3, 0x1FL)); }
    @Test
    void g() {
        assertEquals(2, m.f(x, 1));
        assertEquals(List.of(), M.f(new int[]{1, 2}, Optional.empty()));
        assertTrue(new M().f());
        assertEquals(1, m.f(s -> s));
    }
    int f(int a) { return a; }
    List<Integer> f() { return null; }
}
"""


def test_java_calls_take_literal_calls_and_skip_declarations() -> None:
    assert java_calls({"MTest.java": JAVA_TESTS}, ["f"]) == [
        """f("a)b", Arrays.asList(1, 2), 'c', -1.5e3, 0x1FL)""",
        "f(new int[]{1, 2}, Optional.empty())",
        "f()",
    ]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1L", 1), ("-2.5f", -2.5), ("0x1F", 31), ("1_000", 1000), ("'a'", "a"),
        ('"a\\"b"', 'a"b'), ("true", True), ("null", None), ("Arrays.asList(1, 2)", [1, 2]),
        ('new ArrayList<>(List.of("x"))', ["x"]), ("new int[]{1, 2}", [1, 2]),
        ("Collections.emptyList()", []), ("Optional.of(3)", {"Optional": 3}),
        ("Optional.empty()", {"Optional": None}), ("List.of(List.of(1), List.of())", [[1], []]),
    ],
)  # fmt: skip
def test_java_values_read_literals_as_the_probe_prints_them(text: str, value: object) -> None:
    assert java_value(text) == (True, value)


@pytest.mark.parametrize("text", ["x", "Set.of(1)", "Map.of(1, 2)", "new ArrayList<>(3)", "1 + 2"])
def test_java_values_refuse_what_they_cannot_read(text: str) -> None:
    assert java_value(text) == (False, None)


def test_java_examples_become_checks_of_probe_outputs() -> None:
    examples = [
        "hasClose(Arrays.asList(1.0, 2.0), 0.5) -> false",
        "new Solution().intersperse(Arrays.asList(1, 2), 4) -> [1, 4, 2]",
        "longest(List.of()) -> Optional.empty",
        'longest(Arrays.asList("a", "bb")) -> Optional[bb]',
        "other(1) -> 2",  # not the interface
        "hasClose(xs, 0.5) -> true",  # not literal
        "hasClose([1.0, 2.0], 0.5) -> true",  # a docstring's list, not Java
        "hasClose((1, 2), 0.5) -> true",  # nor a tuple
        "intersperse(List.of(), 1) -> {a=1}",  # unreadable result
    ]
    names = {"hasClose", "intersperse", "longest"}
    assert java_example_checks(examples, names) == [
        ("hasClose(Arrays.asList(1.0, 2.0), 0.5)", False),
        ("intersperse(Arrays.asList(1, 2), 4)", [1, 4, 2]),
        ("longest(List.of())", {"Optional": None}),
        ('longest(Arrays.asList("a", "bb"))', {"Optional": "bb"}),
    ]
    module = Module(name="Solution", purpose="p", language="java", public_interface="f()")
    calls = ["hasClose(Arrays.asList(1.0, 2.0), 0.5)", "intersperse(Arrays.asList(1, 2), 4)"]
    checks = java_example_checks(examples[:2], names)
    assert examples_met(module, ["false", "[1,4,2.0]"], calls, checks) == 2
    assert examples_met(module, ["true", "!NullPointerException"], calls, checks) == 0
    assert examples_met(module, None, calls, checks) == 0
    # a method returning Optional<T> meets an example showing the value it holds
    assert example_met(-9, '{"Optional":-9}') and not example_met(-9, '{"Optional":9}')
    assert not example_met(-9, '{"Optional":null}')
    assert example_met({"Optional": None}, '{"Optional":null}')
    assert displayed_value("Optional[1]") == (True, {"Optional": 1})
    assert displayed_value('["abc", "array"]') == (True, ["abc", "array"])


def test_a_java_call_that_does_not_compile_is_dropped_and_the_rest_run_again() -> None:
    module = Module(name="m", purpose="p", language="java", public_interface="int f(int x)")
    calls = ["f(1)", 'f("a")', "f(2)"]
    runs: list[list[str]] = []

    def run(files: dict[str, str], args: list[str], timeout: float) -> ProgramRun:
        program = files["CodeproofProbe.java"]
        lines = program.splitlines()
        sent = [c for c in calls if f"new M().{c})" in program]
        runs.append(sent)
        if 'f("a")' in sent:
            number = next(i for i, line in enumerate(lines, 1) if 'f("a")' in line)
            error = f"CodeproofProbe.java:{number}: error: incompatible types"
            return ProgramRun(exit_code=1, stdout="", stderr=f"compilation failed: {error}")
        out = "".join(f"{MARK}{json.dumps(str(2 * int(c[2])))}\n" for c in sent)
        return ProgramRun(exit_code=0, stdout=out, stderr="")

    assert probe(run, module, {"M.java": "class M {}"}, calls) == ["2", "!CompileError", "4"]
    assert runs == [calls, ["f(1)", "f(2)"]]


def test_agreement_counts_equal_outputs_with_every_other_candidate() -> None:
    assert agreement([["1", "2"], ["1", "3"], ["1", "2"], None]) == [3, 2, 3, 0]
    assert agreement([]) == []


def test_sharing_a_bug_is_no_agreement() -> None:
    outputs: list[list[str] | None] = [["!NameError", "1"], ["!NameError", "1"], ["2", "1"]]
    assert agreement(outputs) == [3, 3, 2]
    assert agreement(outputs, PY_BROKEN) == [2, 2, 2]
    failed = [["!import SyntaxError"]] * 2
    assert agreement([*failed, ["!ValueError"], ["!ValueError"]], PY_BROKEN) == [0, 0, 1, 1]
    assert agreement([["!CompileError"], ["!CompileError"]], JAVA_BROKEN) == [0, 0]


def _report(passed: list[str], failed: list[str]) -> TestReport:
    cases = [TestCase(name=n, outcome="passed") for n in passed]
    cases += [TestCase(name=n, outcome="failed", message="boom") for n in failed]
    return TestReport(total=len(cases), passed=len(passed), failed=len(failed), tests=cases)


def test_output_agreement_ranks_after_examples_and_before_test_counts() -> None:
    many = _report(["a", "b", "ex"], [])
    few = _report(["a", "ex"], ["b"])
    no_example = _report(["a", "b"], ["ex"])
    protected = frozenset({"ex"})
    assert judge([many, few, few], protected=protected, outputs_agree=[1, 2, 2]).index == 1
    # level on outputs, the draft passing all the pair passes and more wins (not 2x2 > 1x3)
    # where the more is a test of a stated error or one the pair crashed on
    assert judge([many, few, few], protected=protected, error_checks=frozenset({"b"})).index == 0
    assert judge([many, few, few], protected=protected, crashed=[frozenset({"b"})] * 3).index == 0
    # where the pair's code ran and gave another value, CodeT's 2x2 > 1x3 stands
    assert judge([many, few, few], protected=protected).index == 1
    assert judge([many, few, few], protected=protected, outputs_agree=[5, 1, 1]).index == 0
    # the member agreeing most is its group's pick; examples still come first
    assert judge([few, few, no_example], outputs_agree=[1, 4, 9], protected=protected).index == 1
    # examples met by probing count like example tests passed, across and within groups
    met = judge([many, few, few], outputs_agree=[5, 1, 1], examples_met=[0, 1, 0])
    assert met.index == 1
    assert judge([few, few], outputs_agree=[4, 1], examples_met=[0, 1]).index == 1
    assert judge([no_example, many], protected=protected, examples_met=[2, 0]).index == 0
    # no test ran for anyone (none compiled, none designed): the outputs still decide
    nothing = TestReport(message="no tests found")
    assert judge([nothing] * 4, outputs_agree=[16, 0, 19, 19]).index == 2
    assert judge([nothing] * 3, outputs_agree=[5, 5, 5], examples_met=[0, 1, 1]).index == 1
    assert judge([nothing] * 3).index == 0


@pytest.fixture(scope="module", params=["python", "javascript", "java"])
def toolchain(request: pytest.FixtureRequest) -> ToolchainClient:
    """The session's Docker toolchain of each language (``tests/workflow/conftest.py``)."""
    client: ToolchainClient = request.getfixturevalue(f"{request.param}_toolchain")
    return client


CANDIDATES = {
    "python": [
        "def half(n):\n    print('noise')\n    return n / 2\n",
        "def half(n):\n    return n // 2\n",
        "def half(n):\n    return n * 0.5\n",
        "def half(n):\n    while True:\n        pass\n",
    ],
    "javascript": [
        "function half(n) { console.log('noise'); return n / 2; }\nmodule.exports = { half };\n",
        "function half(n) { return Math.floor(n / 2); }\nmodule.exports = { half };\n",
        "module.exports = function half(n) { return n * 0.5; };\n",
        "function half(n) { while (true) {} }\nmodule.exports = { half };\n",
    ],
    "java": [
        "public class Half {\n    public double half(int n) {\n"
        '        System.out.println("noise");\n        return n / 2.0;\n    }\n}\n',
        "public class Half {\n    public double half(int n) { return n / 2; }\n}\n",
        "public class Half {\n    public static double half(int n) { return n * 0.5; }\n}\n",
        "public class Half {\n    public double half(int n) {\n"
        '        return Integer.parseInt("x");\n    }\n}\n',
    ],
}
PROBE_TESTS = {
    "python": {
        "test_half.py": "from half import half\n\ndef test_h():\n"
        "    assert half(3) == 1\n    assert half(4) == 2\n"
    },
    "javascript": {
        "half.test.js": "const { half } = require('./half');\n"
        "test('h', () => { assert.strictEqual(half(3), 1); assert.strictEqual(half(4), 2); });\n"
    },
    "java": {
        "HalfTest.java": "import org.junit.jupiter.api.Test;\n"
        "import static org.junit.jupiter.api.Assertions.*;\n"
        "class HalfTest {\n    @Test\n    void half() {\n"
        "        assertEquals(1.0, new Half().half(3));\n"
        "        assertEquals(2.0, new Half().half(4));\n    }\n}\n"
    },
}


@pytest.mark.docker
def test_probe_runs_candidates_on_the_test_inputs_in_the_sandbox(
    toolchain: ToolchainClient,
) -> None:
    language = toolchain.server.language
    module = Module(name="half", purpose="halves", language=language, public_interface="half(n)")
    tests = PROBE_TESTS[language]
    calls = probe_calls(module, tests)
    assert calls == ["half(3)", "half(4)"]

    def run(files: dict[str, str], args: list[str], timeout: float):  # type: ignore[no-untyped-def]
        return toolchain.run(files, args, timeout_s=timeout)

    [exact, floor, times, broken] = [
        probe(run, module, {toolchain_path(language): code}, calls) for code in CANDIDATES[language]
    ]
    assert exact == times and exact is not None and floor is not None and exact != floor
    assert broken is not None and all(o.startswith("!") for o in broken)  # timeout / TypeError
    choice = choose(
        lambda files, tests: toolchain.run_tests(files, tests, 60),
        [{toolchain_path(language): c} for c in CANDIDATES[language]],
        tests,
        module,
        run_program=run,
    )
    # the test expects floor division, two candidates agree on true division: the outputs'
    # consensus outranks the test's expected values (repair may still follow the test)
    assert choice.index == 0 and choice.probes == 2
    agree = choice.output_agreement
    assert agree[0] == agree[2] > agree[1] and agree[3] == 0
    assert "outputs on 2 test inputs" in choice.note


def toolchain_path(language: str) -> str:
    return {"python": "half.py", "javascript": "half.js", "java": "Half.java"}[language]
