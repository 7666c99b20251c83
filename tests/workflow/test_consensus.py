"""Single assertions that contradict the agreeing candidates are set aside."""

from __future__ import annotations

import pytest

from codeproof.choosing.consensus import consensus, edit_asserts
from codeproof.choosing.selection import choose
from codeproof.core.types import Module
from codeproof.toolchains.client import ToolchainClient

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
    with pytest.raises(ValueError):
        add(0, 0)
    with pytest.raises(TypeError):
        add("a", 1)
"""


def test_consensus_needs_two_and_a_majority_and_a_value() -> None:
    calls = ["f(1)", "f(2)", "f(3)"]
    outputs = [["1", "!ValueError", "x"], ["1", "!ValueError", "y"], ["2", "!ValueError", "z"]]
    assert consensus(outputs, 0, calls) == {"f(1)": "1"}
    assert consensus(outputs, 2, calls) == {}
    assert consensus([["1"], None, None], 0, ["f(1)"]) == {}  # alone
    assert consensus([None, ["1"]], 0, ["f(1)"]) == {}
    twice = [["1"], ["1"], ["2"]]
    assert consensus(twice, 0, ["f(1)"], ["a", "a", "b"]) == {}  # the same draft twice
    assert consensus(twice, 0, ["f(1)"], ["a", "a2", "b"]) == {"f(1)": "1"}


def test_an_agreed_error_counts_only_where_the_request_states_it() -> None:
    calls = ["f(1)", "f(2)"]
    outputs = [["!ValueError", "!IndexError"], ["!ValueError", "!IndexError"], ["1", "2"]]
    assert consensus(outputs, 0, calls) == {}
    stated = consensus(outputs, 0, calls, errors={"ValueError"})
    assert stated == {"f(1)": "!ValueError"}  # a crash nobody stated is no reading


PARSE_TESTS = """import pytest
from temps import parse_temp


def test_fahrenheit():
    assert parse_temp('70') == 21.1
    assert parse_temp('70F') == 21.1


def test_rejects():
    with pytest.raises(ValueError):
        parse_temp('70')
"""


def test_a_value_expected_where_the_agreeing_candidates_raise_a_stated_error() -> None:
    agreed = {"parse_temp('70')": "!ValueError", "parse_temp('70F')": "21.1"}
    edited, notes = edit_asserts("python", {"test_temps.py": PARSE_TESTS}, agreed, ())
    text = edited["test_temps.py"]
    assert "assert parse_temp('70F') == 21.1" in text
    assert "with pytest.raises(ValueError):\n        parse_temp('70')" in text  # agrees
    assert [d.note for d in notes] == [
        "test_temps.py::test_fahrenheit: parse_temp('70') == 21.1 (the agreeing candidates "
        "raise ValueError, as the request states)"
    ]
    js = "test('t', () => {\n  assert.strictEqual(f(-1), 0);\n  assert.throws(() => f(-1));\n});\n"
    edited, notes = edit_asserts("javascript", {"m.test.js": js}, {"f(-1)": "!RangeError"}, ())
    assert [d.note for d in notes] == [
        "m.test.js::f(-1) -> 0 (the agreeing candidates raise RangeError, as the request states)"
    ]
    assert "assert.throws(() => f(-1));" in edited["m.test.js"]
    java = "class MTest {\n  @Test\n  void t() {\n    assertEquals(0, m.f(-1));\n  }\n}\n"
    edited, notes = edit_asserts(
        "java", {"MTest.java": java}, {"f(-1)": "!ArithmeticException"}, ()
    )
    assert [d.note for d in notes] == [
        "MTest.java::f(-1) -> 0 (the agreeing candidates raise ArithmeticException, as the "
        "request states)"
    ]


@pytest.mark.docker
def test_choose_sets_aside_a_value_where_the_drafts_raise_the_stated_error(
    python_toolchain: ToolchainClient,
) -> None:
    """`codeproof new` on a parse_temp request (session 25) shipped correct code reported
    failed 8/9: a designed test expected ``parse_temp('70') == 21.1`` where the request
    says anything else raises ValueError, and every draft raised it."""
    module = Module(
        name="temps", purpose="parses", language="python", public_interface="parse_temp(text)"
    )
    code = (
        "def parse_temp(text):\n    if not text.endswith('F'):\n"
        "        raise ValueError(text)\n    return round((int(text[:-1]) - 32) / 1.8, 1)\n"
    )
    drafts = [{"temps.py": code}, {"temps.py": code + "\n"}]
    tests = {"test_temps.py": PARSE_TESTS}

    def chosen(errors: frozenset[str], examples: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
        return choose(
            lambda files, tests: python_toolchain.run_tests(files, tests, 60),
            drafts,
            tests,
            module,
            list(examples),
            run_program=lambda files, args, t: python_toolchain.run(files, args, timeout_s=t),
            errors=errors,
        )

    whole = chosen(frozenset())  # a crash nobody stated is no consensus: only the whole
    assert "parse_temp('70F')" not in whole.tests["test_temps.py"]  # test goes, and its
    assert whole.report.total == 1  # right check with it
    choice = chosen(frozenset({"ValueError"}))
    assert choice.report.green and choice.report.total == 2
    assert "assert parse_temp('70F') == 21.1" in choice.tests["test_temps.py"]
    stated = chosen(frozenset({"ValueError"}), ("parse_temp('70') -> 21.1",))
    assert "assert parse_temp('70') == 21.1" in stated.tests["test_temps.py"]  # the
    assert not stated.report.green  # user's word, which no agreement sets aside
    assert not any("parse_temp('70') == 21.1" in q for q in stated.quarantined)
    assert [q.split(" (")[0] for q in choice.quarantined] == [
        "test_temps.py::test_fahrenheit: parse_temp('70') == 21.1"
    ]


def test_contradicting_asserts_are_set_aside_and_empty_tests_removed() -> None:
    agreed = {"add(1, 2)": "3", "add(-100, -100)": "-200", "add(2, 2)": "4", "add(0, 0)": "0"}
    agreed |= {"add(1.5, 1.5)": "3.0"}
    edited, notes = edit_asserts("python", {"test_add.py": TESTS}, agreed, ())
    text = edited["test_add.py"]
    compile(text, "test_add.py", "exec")
    assert "assert add(1, 2) == 3" in text and "assert add(5, 5) == 11" in text
    assert "assert 3 == add(1.5, 1.5)" in text  # 3.0 == 3: no dispute
    assert "add(-100, -100) == 0" not in text.replace("set aside, add(-100, -100) == 0", "")
    assert "def test_only_wrong" not in text and "parametrize" not in text
    assert "for _ in range(2):\n        pass  # codeproof: set aside" in text
    assert [d.note for d in notes] == [
        "test_add.py::test_add: add(-100, -100) == 0 (the agreeing candidates return -200)",
        "test_add.py::test_add: add(2, 2) == 5 (the agreeing candidates return 4)",
        "test_add.py::test_only_wrong: add(0, 0) == 1 (the agreeing candidates return 0)",
        "test_add.py::test_other: add(0, 0) in pytest.raises(ValueError) (the agreeing "
        "candidates return 0)",
    ]
    # each check set aside is also a record: a question for the human later
    assert [(d.call, d.expected, d.agreed) for d in notes] == [
        ("add(-100, -100)", "0", "-200"),
        ("add(2, 2)", "5", "4"),
        ("add(0, 0)", "1", "0"),
        ("add(0, 0)", "!ValueError", "0"),
    ]
    assert 'with pytest.raises(TypeError):\n        add("a", 1)' in text  # not probed
    unchanged, none = edit_asserts(
        "python", {"test_add_examples.py": TESTS}, agreed, ["test_add_examples.py"]
    )
    assert unchanged == {"test_add_examples.py": TESTS} and none == []
    java = {"AddTest.java": "class AddTest {}"}
    assert edit_asserts("java", java, agreed, ()) == (java, [])  # nothing to set aside


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
    assert choice.index == 0 and choice.output_agreement == [8, 8, 2]
    assert [r.passed for r in choice.reports] == [0, 0, 0]
    assert choice.report.green and choice.report.total == 2  # test_only_wrong is gone
    assert [q.split(": ", 1)[1].split(" (")[0] for q in choice.quarantined] == [
        "add(-100, -100) == 0",
        "add(2, 2) == 5",
        "add(0, 0) == 1",
        "add(5, 5) == 11",
        "add(0, 0) in pytest.raises(ValueError)",
    ]
    assert "test_only_wrong" not in choice.tests["test_add.py"]


JS_TESTS = """const { f } = require('./m');
test('wrong twice', () => {
  assert.strictEqual(f(2), 5);
  assert.strictEqual(f(2), 5);
});
test('f', () => {
  assert.strictEqual(f(1), 2);
  assert.strictEqual(f(2), 5, 'wrong');
  assert.deepStrictEqual(f('a,b'), ['a', 'b']);
  assert.deepStrictEqual(f("x"), { "k": [1] });
  assert.equal(f(3), 4)
  assert.deepStrictEqual(f('aB'), { a: 1, b: 1 });
  assert.deepStrictEqual(f('c'), { c: 1, 'd': [2] });
});
"""


def test_contradicting_javascript_asserts_are_set_aside() -> None:
    agreed = {"f(1)": "2", "f(2)": "4", "f('a,b')": '["a","b"]', 'f("x")': '{"k":[2]}'}
    agreed |= {"f('aB')": '{"ab":1}', "f('c')": '{"c":1,"d":[2]}'}
    edited, notes = edit_asserts("javascript", {"m.test.js": JS_TESTS}, agreed, ())
    text = edited["m.test.js"]
    assert "assert.strictEqual(f(1), 2);" in text and "assert.equal(f(3), 4)" in text
    assert "assert.deepStrictEqual(f('a,b'), ['a', 'b']);" in text
    assert "assert.strictEqual(f(2)" not in text and 'assert.deepStrictEqual(f("x")' not in text
    assert [d.note for d in notes] == [
        "m.test.js::f(2) -> 5 (the agreeing candidates return 4)",
        'm.test.js::f("x") -> { "k": [1] } (the agreeing candidates return {"k":[2]})',
        """m.test.js::f('aB') -> { a: 1, b: 1 } (the agreeing candidates return {"ab":1})""",
    ]
    assert (notes[0].call, notes[0].expected, notes[0].agreed) == ("f(2)", "5", "4")
    assert "assert.deepStrictEqual(f('c'), { c: 1, 'd': [2] });" in text
    assert text.count("/* codeproof: set aside") == 3 and "wrong twice" not in text
    assert edit_asserts("javascript", {"m.test.js": JS_TESTS}, agreed, ["m.test.js"])[1] == []


@pytest.mark.docker
def test_choose_sets_aside_wrong_javascript_asserts(real_toolchains) -> None:  # type: ignore[no-untyped-def]
    node = real_toolchains("javascript")
    module = Module(name="m", purpose="doubles", language="javascript", public_interface="f(x)")
    code = "function f(x) { return x * 2; }\nmodule.exports = { f };\n"
    tests = {
        "m.test.js": "const { test } = require('node:test');\n"
        "const assert = require('node:assert/strict');\n"
        "const { f } = require('./m');\ntest('f', () => {\n"
        "  assert.strictEqual(f(1), 2);\n  assert.strictEqual(f(2), 5);\n});\n"
    }
    choice = choose(
        lambda files, tests: node.run_tests(files, tests),
        [{"m.js": code}, {"m.js": code + "\n"}],
        tests,
        module,
        run_program=lambda files, args, t: node.run(files, args, timeout_s=t),
    )
    assert [r.passed for r in choice.reports] == [0, 0]
    assert choice.report.green and choice.report.total == 1
    assert choice.quarantined == ["m.test.js::f(2) -> 5 (the agreeing candidates return 4)"]


JAVA_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
import java.util.*;

class MTest {
    private final M m = new M();

    @Test
    void doubles() {
        assertEquals(2, m.f(1));
        assertEquals(5, m.f(2), "wrong");
        assertEquals(m.f(3), 7);
        assertEquals(6.5, new M().g(3.0), 0.6);
        assertEquals(Arrays.asList("a", "b"), M.split("a,b"));
        assertTrue(m.even(3));
        assertFalse(m.even(x));
    }

    @Test
    public void onlyWrong() throws Exception {
        Assertions.assertEquals(List.of(1), M.split("q"));
    }
}
"""


def test_contradicting_java_asserts_are_set_aside() -> None:
    agreed = {"f(1)": "2", "f(2)": "4", "f(3)": "6", "g(3.0)": "6", 'split("a,b")': '["a","b"]'}
    agreed |= {"even(3)": "false", 'split("q")': '["q"]'}
    edited, notes = edit_asserts("java", {"MTest.java": JAVA_TESTS}, agreed, ())
    text = edited["MTest.java"]
    assert "assertEquals(2, m.f(1));" in text
    assert "assertEquals(6.5, new M().g(3.0), 0.6);" in text  # within the test's delta
    assert 'assertEquals(Arrays.asList("a", "b"), M.split("a,b"));' in text
    assert "assertFalse(m.even(x));" in text  # not a probe
    assert [d.note for d in notes] == [
        "MTest.java::f(2) -> 5 (the agreeing candidates return 4)",
        "MTest.java::f(3) -> 7 (the agreeing candidates return 6)",
        "MTest.java::even(3) -> true (the agreeing candidates return false)",
        'MTest.java::split("q") -> List.of(1) (the agreeing candidates return ["q"])',
    ]
    assert "onlyWrong" not in text and "void doubles()" in text
    assert text.count("/* codeproof: set aside") == 3


@pytest.mark.docker
def test_choose_sets_aside_wrong_java_asserts(real_toolchains) -> None:  # type: ignore[no-untyped-def]
    java = real_toolchains("java")
    module = Module(name="m", purpose="doubles", language="java", public_interface="int f(int x)")
    code = "public class M {\n    public int f(int x) { return x * 2; }\n}\n"
    tests = {
        "MTest.java": "import org.junit.jupiter.api.Test;\n"
        "import static org.junit.jupiter.api.Assertions.*;\n"
        "class MTest {\n    @Test\n    void f() {\n"
        "        assertEquals(2, new M().f(1));\n        assertEquals(5, new M().f(2));\n"
        "    }\n}\n"
    }
    choice = choose(
        lambda files, tests: java.run_tests(files, tests),
        [{"M.java": code}, {"M.java": code + "\n"}],
        tests,
        module,
        run_program=lambda files, args, t: java.run(files, args, timeout_s=t),
    )
    assert [r.passed for r in choice.reports] == [0, 0]
    assert choice.probes == 2 and choice.output_agreement == [2, 2]
    assert choice.report.green and choice.report.total == 1
    assert choice.quarantined == ["MTest.java::f(2) -> 5 (the agreeing candidates return 4)"]


@pytest.mark.docker
def test_java_candidates_meeting_the_stated_examples_win(real_toolchains) -> None:  # type: ignore[no-untyped-def]
    java = real_toolchains("java")
    module = Module(
        name="Solution", purpose="roman", language="java", public_interface="String roman(int n)"
    )

    def solution(table: str) -> dict[str, str]:
        return {
            "Solution.java": "import java.util.*;\npublic class Solution {\n"
            "    public String roman(int n) {\n"
            f"        int[] v = {{{table}}};\n"
            '        String[] s = {"M", "D", "C", "L", "X", "V", "I"};\n'
            '        String[] t = {"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V",'
            ' "IV", "I"};\n'
            "        String[] sym = v.length == 7 ? s : t;\n"
            "        StringBuilder b = new StringBuilder();\n"
            "        for (int i = 0; i < v.length; i++)\n"
            "            while (n >= v[i]) { b.append(sym[i]); n -= v[i]; }\n"
            "        return b.toString();\n    }\n}\n"
        }

    additive = solution("1000, 500, 100, 50, 10, 5, 1")
    subtractive = solution("1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1")
    tests = {
        "SolutionTest.java": "import org.junit.jupiter.api.Test;\n"
        "import static org.junit.jupiter.api.Assertions.*;\n"
        "class SolutionTest {\n    @Test\n    void three() {\n"
        '        assertEquals("III", new Solution().roman(3));\n    }\n}\n'
    }
    # two additive drafts outvote one subtractive draft on every probe, and pass the same
    # tests; the user's example is what decides
    choice = choose(
        lambda files, tests: java.run_tests(files, tests),
        [additive, {"Solution.java": additive["Solution.java"] + "\n"}, subtractive],
        tests,
        module,
        ['new Solution().roman(4) -> "IV"', 'roman(3) -> "III"'],
        lambda files, args, t: java.run(files, args, timeout_s=t),
    )
    assert [r.passed for r in choice.reports] == [1, 1, 1]
    assert choice.examples_met == [1, 1, 2] and choice.example_checks == 2
    assert choice.index == 2 and "stated examples met per candidate: [1, 1, 2] of 2" in choice.note


def test_only_whole_check_statements_in_code_are_set_aside() -> None:
    # a scanner set aside checks inside comments and inside arrow bodies (leaving
    # "() => /* note */", a syntax error), and misread a template literal's ")"
    js = (
        "test('t', () => {\n  // assert.strictEqual(f(2), 5);\n"
        "  [1].forEach(() => assert.strictEqual(f(2), 5));\n"
        "  assert.strictEqual(f(`)`), 'x');\n});\n"
    )
    agreed = {"f(2)": "4", "f(`)`)": '"y"'}
    edited, notes = edit_asserts("javascript", {"m.test.js": js}, agreed, ())
    assert [d.note for d in notes] == [
        "m.test.js::f(`)`) -> 'x' (the agreeing candidates return \"y\")"
    ]
    assert edited["m.test.js"] == js.replace(
        "  assert.strictEqual(f(`)`), 'x');",
        "  /* codeproof: set aside, f(`)`) -> 'x' (the agreeing candidates return \"y\") */",
    )
    java = (
        "class MTest {\n    @Test\n    void a() {\n"
        "        assertAll(() -> assertEquals(5, m.f(2)));\n"
        '        String s = """\n            assertEquals(5, m.f(2));\n            """;\n    }\n}\n'
    )
    assert edit_asserts("java", {"MTest.java": java}, {"f(2)": "4"}, ()) == (
        {"MTest.java": java},
        [],
    )


@pytest.mark.docker
def test_a_designed_copy_of_the_function_tests_the_module_in_the_sandbox(
    python_toolchain: ToolchainClient,
) -> None:
    """A designed test file defining its own stub of the function under test fails
    right code (HumanEval/87 in words); fixed, it runs the module's function."""
    from codeproof.languages.python.tidy import fix_python_tests

    stub = "def get_row(lst, x):\n    pass\n\n\n"
    stub += "def test_row():\n    assert get_row([[1]], 1) == [(0, 0)]\n"
    right = {"grid.py": "def get_row(lst, x):\n    return [(0, 0)]\n"}
    assert not python_toolchain.run_tests(right, {"test_grid.py": stub}, 60).green
    fixed = fix_python_tests(stub, "grid", [])
    assert python_toolchain.run_tests(right, {"test_grid.py": fixed}, 60).green
    wrong = {"grid.py": "def get_row(lst, x):\n    return []\n"}
    assert not python_toolchain.run_tests(wrong, {"test_grid.py": fixed}, 60).green
