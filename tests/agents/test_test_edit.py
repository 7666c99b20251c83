"""Removing single tests from generated test files, by their report names."""

from __future__ import annotations

import ast

import pytest

from codeproof.languages.java.tests import java_tests_at, uncompiled_java_tests
from codeproof.languages.test_edit import drop_foreign, naming, remove_tests

PY = """import pytest
from m import add


def test_a():
    assert add(1, 2) == 3


@pytest.mark.parametrize("x", [1, 2])
def test_b(x):
    assert add(x, 0) == x


class TestC:
    def test_c(self):
        assert add(1, -1) == -2
"""

JS = """const { test, describe } = require('node:test');
test('adds "one"', () => {
  assert.equal(add(1, 2), 3); // )
});
test("keeps { brace", () => { assert.equal(f("}"), 1) });
describe('d', () => {
  it(`nested`, () => {
    assert.ok(true);
  });
});
"""

JAVA = """import org.junit.jupiter.api.Test;
class SolutionTest {
    @Test
    void testAdd() {
        assertEquals(3, new Solution().add(1, 2)); // }
    }

    @Test
    @DisplayName("x")
    public void testNeg() { assertEquals("}", "{"); }
}
"""


def test_python_function_and_decorated_function_are_cut_whole() -> None:
    files, removed = remove_tests(
        "python", {"test_m.py": PY}, ["test_m.test_a", "test_m.test_b[1]", "test_m.test_b[2]"]
    )
    text = files["test_m.py"]
    assert removed == ["test_m.test_a", "test_m.test_b[1]", "test_m.test_b[2]"]
    assert "def test_a" not in text and "def test_b" not in text and "parametrize" not in text
    assert "def test_c" in text and "from m import add" in text
    ast.parse(text)


def test_python_parametrized_case_stays_while_another_case_stays() -> None:
    reported = ["test_m.test_b[1]", "test_m.test_b[2]", "test_m.test_a"]
    files, removed = remove_tests("python", {"test_m.py": PY}, ["test_m.test_b[1]"], reported)
    assert removed == [] and files["test_m.py"] == PY


def test_python_method_removal_keeps_the_class_valid() -> None:
    files, removed = remove_tests("python", {"test_m.py": PY}, ["test_m.TestC.test_c"])
    assert removed == ["test_m.TestC.test_c"]
    tree = ast.parse(files["test_m.py"])
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    assert [type(n).__name__ for n in cls.body] == ["Pass"]


def test_unknown_or_ambiguous_names_are_left_alone() -> None:
    twice = PY + "\n\nclass TestD:\n    def test_c(self):\n        pass\n"
    files, removed = remove_tests("python", {"a.py": PY, "b.py": twice}, ["x.test_zzz", "test_a"])
    assert removed == [] and files == {"a.py": PY, "b.py": twice}


def test_javascript_calls_are_cut_with_strings_and_comments_skipped() -> None:
    files, removed = remove_tests(
        "javascript", {"m.test.js": JS}, ['adds "one"', "keeps { brace", "d > nested"]
    )
    text = files["m.test.js"]
    assert removed == ['adds "one"', "keeps { brace", "d > nested"]
    assert "test(" not in text and "it(" not in text
    assert "describe('d', () => {\n});" in text
    assert text.count("(") == text.count(")") and text.count("{") == text.count("}")


def test_java_method_is_cut_with_its_annotations() -> None:
    files, removed = remove_tests("java", {"SolutionTest.java": JAVA}, ["SolutionTest.testNeg()"])
    text = files["SolutionTest.java"]
    assert removed == ["SolutionTest.testNeg()"]
    assert "testNeg" not in text and "DisplayName" not in text
    assert text == JAVA.split("    @Test\n    @DisplayName")[0] + "}\n"


JAVA_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class SolutionTest {
    @Test
    void ok() {
        assertEquals(2, new Solution().f(1));
    }

    @Test
    void wrongType() {
        assertEquals(2, new Solution().f("1"));
    }

    @Test
    @DisplayName("x")
    public void unknownMethod() {
        assertEquals(2, new Solution().g(1));
    }
}
"""


def test_javac_errors_point_at_the_test_methods_they_fall_in() -> None:
    assert java_tests_at(JAVA_TESTS, [7, 12, 18, 1]) == ["ok", "wrongType", "unknownMethod"]
    message = (
        "compilation failed: SolutionTest.java:12: error: incompatible types: String cannot "
        "be converted to int; SolutionTest.java:18: cannot find symbol; Solution.java:3: "
        "error: missing return statement"
    )
    tests = {"SolutionTest.java": JAVA_TESTS}
    assert uncompiled_java_tests(message, tests) == ["wrongType", "unknownMethod"]
    assert uncompiled_java_tests("compilation failed: Solution.java:12: error: x", tests) == []
    assert uncompiled_java_tests("", tests) == []


def test_javascript_regex_and_template_literals_do_not_end_a_test_early() -> None:
    # a scanner closed the test at the regex's ")" and at the nested template's "}"
    source = (
        "test('a', () => {\n  assert.ok(/\\)/.test(')'));\n"
        "  assert.equal(`${f(`}`)}`, '}');\n});\ntest('b', () => {});\n"
    )
    files, removed = remove_tests("javascript", {"m.test.js": source}, ["a"])
    assert removed == ["a"] and files["m.test.js"] == "test('b', () => {});\n"


def test_javascript_same_title_in_two_suites_is_told_apart_by_the_suite() -> None:
    source = (
        "describe('x', () => {\n  it('works', () => {});\n});\n"
        "describe('y', () => {\n  it('works', () => {});\n});\n"
        "// it('lone', ...) in a comment is no test\nit('lone', () => {});\n"
    )
    files, removed = remove_tests("javascript", {"m.test.js": source}, ["y > works", "lone"])
    assert removed == ["y > works", "lone"]
    assert files["m.test.js"] == (
        "describe('x', () => {\n  it('works', () => {});\n});\n"
        "describe('y', () => {\n});\n// it('lone', ...) in a comment is no test\n"
    )


JAVA_TEXT_BLOCK = '''class T {
    @Test
    void one() {
        assertEquals("""
            "}" {
            """, f());
    }

    @Test
    void two() { assertEquals('}', g()); }
}
'''


def test_java_text_blocks_and_chars_do_not_end_a_method_early() -> None:
    # a scanner read the text block as "" + "...", and the "}" in it closed the method
    assert java_tests_at(JAVA_TEXT_BLOCK, [5, 7, 10]) == ["one", "two"]
    files, removed = remove_tests("java", {"T.java": JAVA_TEXT_BLOCK}, ["T.one()"])
    assert removed == ["T.one()"]
    kept = "class T {\n\n    @Test\n    void two() { assertEquals('}', g()); }\n}\n"
    assert files["T.java"] == kept


def test_cutting_the_last_tests_leaves_no_blank_lines_at_the_end() -> None:
    indented = "class TestV:\n    def test_a(self):\n        assert f(1)\n    \n" + "".join(
        f"    def test_{n}(self):\n        assert f({n})\n    \n    \n" for n in "bcd"
    )
    names = [f"test_v.TestV.test_{n}" for n in "bcd"]
    files, removed = remove_tests("python", {"test_v.py": indented}, names)
    assert removed == names
    assert files["test_v.py"] == "class TestV:\n    def test_a(self):\n        assert f(1)\n"


def test_the_tests_naming_a_stated_error_are_found_by_name_token() -> None:
    java = (
        "class LruCacheTest {\n    @Test\n    void testConstructor() {\n"
        "        assertThrows(IllegalArgumentException.class, () -> new LruCache<>(0));\n"
        "    }\n\n    @Test\n    void testSize() {\n"
        "        // no IllegalArgumentException here, only in a comment\n"
        '        assertEquals("IllegalArgumentException", new LruCache<>(2).name());\n    }\n}\n'
    )
    names = ["LruCacheTest.testConstructor", "LruCacheTest.testSize", "LruCacheTest.gone"]
    wanted = {"IllegalArgumentException"}
    found = naming("java", {"LruCacheTest.java": java}, names, wanted)
    assert found == {"LruCacheTest.testConstructor"}
    js = (
        "test('rejects 1.5', () => { assert.throws(() => new Stack(1.5), RangeError); });\n"
        "test('push', () => { assert.equal(new Stack(2).push(1), 1); });\n"
    )
    assert naming("javascript", {"stack.test.js": js}, ["rejects 1.5", "push"], {"RangeError"}) == {
        "rejects 1.5"
    }
    assert naming("python", {"test_m.py": PY}, ["test_m.test_a"], {"ValueError"}) == frozenset()
    assert naming("python", {"test_m.py": PY}, ["test_m.test_a"], ()) == frozenset()


@pytest.mark.parametrize(
    ("language", "source", "dropped"),
    [
        (
            "python",
            "from reading import describe\nfrom temperature import to_f\n\n\n"
            "def test_to_f():\n    assert to_f(32) == 0.0\n\n\n"
            "def test_describe():\n    assert describe(0) == '0.0 C (32.0 F)'\n\n\n"
            "def test_both():\n    assert describe(to_f(0)) == '32.0 C'\n\n\n"
            "def test_nothing_named():\n    assert 1 + 1 == 2\n",
            ["test_to_f"],
        ),
        (
            "javascript",
            "const { describe: d } = require('./reading');\n"
            "const { toF } = require('./temperature');\n"
            "test('to f', () => { assert.strictEqual(toF(32), 0); });\n"
            "test('describe', () => { assert.strictEqual(d(0), 'x'); });\n",
            ["to f"],
        ),
    ],
)
def test_tests_naming_only_another_modules_names_are_dropped(
    language: str, source: str, dropped: list[str]
) -> None:
    own = {"describe", "d"}
    files, names = drop_foreign(language, {"t": source}, own, {"to_f", "toF"})
    assert names == dropped
    assert all(name not in files["t"] for name in dropped)
    assert "describe" in files["t"]


def test_a_file_of_only_foreign_tests_or_without_own_names_is_kept() -> None:
    source = "from t import to_f\n\n\ndef test_to_f():\n    assert to_f(32) == 0.0\n"
    assert drop_foreign("python", {"t": source}, {"describe"}, {"to_f"}) == ({"t": source}, [])
    assert drop_foreign("python", {"t": source}, set(), {"to_f"}) == ({"t": source}, [])
