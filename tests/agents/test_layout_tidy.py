"""Language layouts and the deterministic fixes of generated test files."""

from __future__ import annotations

import ast

import pytest

from codeproof.core.errors import UnknownLanguageError
from codeproof.languages.java.tidy import (
    add_java_imports,
    class_name,
    fix_java_tests,
    rename_java_class,
)
from codeproof.languages.java.tidy import fix_source as fix_java_source
from codeproof.languages.javascript.tidy import fix_javascript_tests, strip_usage_javascript
from codeproof.languages.python.tidy import fix_python_tests, salvage_python, strip_usage_python
from codeproof.languages.registry import layout_for, normalize_language
from codeproof.languages.syntax import parse


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("Python 3", "python"),
        ("py", "python"),
        ("Node.js", "javascript"),
        ("JS", "javascript"),
        ("java", "java"),
        ("Rust", "rust"),
    ],
)
def test_normalize_language(raw: str, canonical: str) -> None:
    assert normalize_language(raw) == canonical


def test_layout_paths() -> None:
    assert (layout_for("python").source_path("adder"), layout_for("python").test_path("adder")) == (
        "adder.py",
        "test_adder.py",
    )
    assert layout_for("javascript").test_path("adder") == "adder.test.js"
    assert layout_for("java").source_path("string_utils") == "StringUtils.java"
    assert layout_for("java").test_path("string_utils") == "StringUtilsTest.java"
    assert layout_for("java").is_test_path("StringUtilsTest.java")
    assert not layout_for("python").is_test_path("adder.py")
    assert class_name("2d_grid") == "M2dGrid"


def test_unknown_language_is_a_user_error() -> None:
    with pytest.raises(UnknownLanguageError):
        layout_for("cobol")


def test_count_tests_per_language() -> None:
    assert (
        layout_for("python").count_tests("def test_a():\n    pass\nasync def test_b():\n    pass\n")
        == 2
    )
    assert layout_for("javascript").count_tests("test('a', () => {});\nit(\"b\", () => {});") == 2
    assert layout_for("java").count_tests("@Test\nvoid a() {}\n@Test\n  public void b() {}") == 2


BROKEN = """import pytest
from adder import add


def test_ok():
    assert add(1, 2) == 3


def test_broken():
    assert add(1, 2 == 3


@pytest.mark.parametrize("a", [1])
def test_param(a):
    assert add(a, 0) == a
"""


def test_salvage_drops_only_the_broken_test() -> None:
    fixed = salvage_python(BROKEN)
    names = [n.name for n in ast.parse(fixed).body if isinstance(n, ast.FunctionDef)]
    assert names == ["test_ok", "test_param"]
    assert "@pytest.mark.parametrize" in fixed


def test_duplicate_test_names_are_renamed() -> None:
    src = (
        "from adder import add\n\ndef test_add():\n    assert 1\n\ndef test_add():\n    assert 2\n"
    )
    fixed = fix_python_tests(src, "adder", [])
    names = [n.name for n in ast.parse(fixed).body if isinstance(n, ast.FunctionDef)]
    assert names == ["test_add", "test_add_2"]


def test_imports_of_unknown_modules_point_at_the_module() -> None:
    src = (
        "import math\n"
        "from solution import add\n"
        "from helper import util\n"
        "\n"
        "def test_a():\n"
        "    assert add(1, 1) == 2\n"
    )
    fixed = fix_python_tests(src, "adder", ["helper"])
    assert "from adder import add" in fixed
    assert "from helper import util" in fixed
    assert "import math" in fixed


def test_the_property_test_library_is_imported_from_itself() -> None:
    # the fixer took hypothesis for an unknown module and imported `given` from the module
    # under test: every test of the file then failed to load, for every draft
    src = (
        "from hypothesis import given, strategies as st\n"
        "from rolling_max import rolling_max\n"
        "\n"
        "@given(st.lists(st.integers()))\n"
        "def test_length(xs):\n"
        "    assert len(rolling_max(xs)) == len(xs)\n"
    )
    assert fix_python_tests(src, "rolling_max", []) == src


def test_missing_module_and_pytest_imports_are_added() -> None:
    src = (
        '"""Tests."""\n'
        "import math\n"
        "\n"
        "def test_a():\n"
        "    with pytest.raises(TypeError):\n"
        "        add(None, 1)\n"
    )
    fixed = fix_python_tests(src, "adder", [])
    tree = ast.parse(fixed)
    imported = [n for n in tree.body if isinstance(n, ast.ImportFrom)]
    assert imported[0].module == "adder"
    assert fixed.startswith("import pytest\n")


def test_javascript_requires_are_fixed() -> None:
    src = (
        "const { add } = require('../src/solution');\n"
        "test('adds', () => {\n"
        "  assert.strictEqual(add(1, 2), 3);\n"
        "});\n"
    )
    fixed = fix_javascript_tests(src, "adder", [])
    assert "require('./adder')" in fixed
    assert "require('node:test')" in fixed
    assert "const assert = require('node:assert/strict');" in fixed
    untouched = (
        "const test = require('node:test');\nconst assert = require('node:assert/strict');\n"
    )
    assert fix_javascript_tests(untouched, "adder", []) == untouched


def test_java_tests_get_imports_and_unique_names() -> None:
    src = (
        "public class AdderTest {\n"
        "  @Test\n"
        "  void adds() { assertEquals(3, Adder.add(1, 2)); }\n"
        "  @Test\n"
        "  void adds() { assertEquals(0, Adder.add(0, 0)); }\n"
        "}\n"
    )
    fixed = fix_java_tests(src, "adder", [])
    assert fixed.startswith(
        "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n"
    )
    assert "void adds()" in fixed and "void adds2()" in fixed


def test_java_files_get_the_standard_imports_they_use() -> None:
    test = (
        "class SolutionTest {\n  @Test\n  void f() {\n"
        '    // an empty List\n    assertTrue(new Solution().f(new ArrayList<>(), "Map"));\n'
        "    assertEquals(Arrays.asList(1), new Solution().g(Optional.empty()));\n  }\n}\n"
    )
    fixed = fix_java_tests(test, "solution", [])
    assert sorted(fixed.splitlines()[:3]) == [
        "import java.util.*;",
        "import org.junit.jupiter.api.Test;",
        "import static org.junit.jupiter.api.Assertions.*;",
    ]
    source = (
        "package p;\nimport java.util.List;\nclass Solution {\n"
        "  List<String> f(List<String> xs) {\n"
        "    return xs.stream().map(String::trim).collect(Collectors.toList());\n  }\n}\n"
    )
    assert add_java_imports(source).startswith(
        "package p;\nimport java.util.stream.*;\n\nimport java.util.List;"
    )  # List is imported; a comment's or a string's words are not read
    # the toolchain's convention is the default package: the package line goes
    assert fix_java_source(source, "Solution.java").startswith(
        "import java.util.stream.*;\nimport java.util.List;\nclass Solution {"
    )
    # java-business-calendar: a designed test used LocalDate with only java.util.* imported,
    # so it compiled against no draft and was set aside, leaving the module untested
    test = "import java.util.*;\nclass T { Set<LocalDate> s = Set.of(LocalDate.of(2024, 3, 1)); }\n"
    assert add_java_imports(test).startswith("import java.time.*;\nimport java.util.*;")
    days = "class S { long n = ChronoUnit.DAYS.between(a, b); DayOfWeek d; }\n"
    assert add_java_imports(days).startswith("import java.time.*;\nimport java.time.temporal.*;")
    for covered in (
        "import java.util.*;\nclass S { List<Integer> x; }\n",
        "import java.util.List;\nclass S { List<Integer> x; }\n",
        "class Stack {}\nclass S { Stack s; }\n",  # its own class
        'class S { String s = "Arrays"; }\n',
    ):
        assert add_java_imports(covered) == covered


def test_java_class_is_renamed_to_the_file_name() -> None:
    src = (
        "public class Calc {\n"
        "  public Calc() {}\n"
        "  public static int add(int a, int b) { return a + b; }\n"
        "}\n"
    )
    fixed = rename_java_class(src, "Adder")
    assert "public class Adder {" in fixed and "public Adder()" in fixed
    assert rename_java_class(fixed, "Adder") == fixed


def test_a_java_source_whose_one_class_is_package_private_is_named_after_its_file() -> None:
    source = "class LruCache<K, V> {\n  LruCache(int capacity) {}\n}\n"
    fixed = fix_java_source(source, "LRUCache.java")
    assert "class LRUCache<K, V> {" in fixed and "LRUCache(int capacity)" in fixed
    helpers = "class A {}\nclass B {}\n"  # two top-level classes: which one is meant?
    assert "class A {}" in fix_java_source(helpers, "C.java")


def test_python_test_classes_are_made_collectable() -> None:
    source = (
        "from add import add\n\n"
        "class AddTests:\n    def test_small(self):\n        assert add(1, 2) == 3\n\n"
        "class Helper:\n    def value(self):\n        return 1\n\n"
        "import unittest\n\n"
        "class Legacy(unittest.TestCase):\n"
        "    def test_zero(self):\n        assert add(0, 0) == 0\n"
    )
    fixed = fix_python_tests(source, "add", [])
    classes = [n.name for n in ast.parse(fixed).body if isinstance(n, ast.ClassDef)]
    assert classes == ["TestAddTests", "Helper", "Legacy"]


def test_javascript_tests_cut_mid_test_keep_the_complete_ones() -> None:
    complete = (
        "const test = require('node:test');\n"
        "const assert = require('node:assert/strict');\n"
        "const { add } = require('./add');\n\n"
        "test('adds', () => {\n  assert.strictEqual(add(1, 2), 3);\n});\n"
    )
    cut = complete + "\ntest('many', () => {\n  assert.strictEqual(add(100, 0, 100, 10"
    assert fix_javascript_tests(cut, "add", []) == complete
    assert fix_javascript_tests(complete, "add", []) == complete


def test_javascript_tests_without_require_see_the_module_exports() -> None:
    source = "test('adds', () => {\n  assert.strictEqual(add(1, 2), 3);\n});\n"
    fixed = fix_javascript_tests(source, "add", [])
    assert "Object.assign(globalThis, require('./add'));" in fixed
    assert "require('node:test')" in fixed and "require('node:assert/strict')" in fixed


def test_python_module_level_usage_is_dropped() -> None:
    source = (
        "import pytest\n"
        '"""Adds."""\n'
        "LIMIT = 3\n\n"
        "def add(a, b):\n    assert a is not None\n    print(a)\n    return a + b\n\n"
        "assert add(1, 2) == 3\n"
        "print(add(1, 2))\n"
        "with pytest.raises(TypeError):\n    add('a', 1)\n"
        "if __name__ == '__main__':\n    print(add(2, 3))\n"
    )
    tidy = strip_usage_python(source)
    assert tidy == '"""Adds."""\nLIMIT = 3\n\ndef add(a, b):\n    assert a is not None\n' + (
        "    print(a)\n    return a + b\n"
    )
    assert strip_usage_python(tidy) == tidy
    broken = "def add(a, b):\n    return a +\nprint(1)\n"
    assert strip_usage_python(broken) == broken


def test_python_module_keeps_pytest_it_uses() -> None:
    source = "import pytest\n\ndef check():\n    pytest.fail('x')\n\nprint(1)\n"
    assert strip_usage_python(source) == "import pytest\n\ndef check():\n    pytest.fail('x')\n"


def test_javascript_module_level_usage_is_dropped() -> None:
    source = (
        "function add(a, b) {\n  console.log(a);\n  return a + b;\n}\n\n"
        "console.log(add(1, 2));\nassert.strictEqual(add(1, 2), 3);\n"
        "console.log(\n  add(1, 2));\nmodule.exports = { add };\n"
    )
    assert strip_usage_javascript(source) == (
        "function add(a, b) {\n  console.log(a);\n  return a + b;\n}\n\nmodule.exports = { add };\n"
    )  # the call over two lines goes too (a line scanner had to keep it)


def test_javascript_module_level_tests_are_dropped() -> None:
    source = (
        "const assert = require('node:assert/strict');\n"
        "function add(a, b) {\n  assert.ok(a !== undefined);\n  return a + b;\n}\n\n"
        "const test = require('node:test');\n"
        "test('adds (1)', () => {\n  assert.strictEqual(add(1, 2), 3);\n});\n"
        "describe('x', () => { it('y', () => { assert.ok(\"a)\"); }); });\n"
        "module.exports = { add };\n"
    )
    assert strip_usage_javascript(source) == (
        "const assert = require('node:assert/strict');\n"
        "function add(a, b) {\n  assert.ok(a !== undefined);\n  return a + b;\n}\n\n"
        "module.exports = { add };\n"
    )


def test_javascript_module_without_exports_exports_its_functions() -> None:
    source = (
        "function add(a, b) {\n  return a + b;\n}\n"
        "async function* gen() {}\nclass Box {}\n"
        "const twice = (x) => 2 * x;\nconst half = x => x / 2;\nconst N = 3;\n"
        "test.run();\n"
    )
    assert strip_usage_javascript(source) == (
        "function add(a, b) {\n  return a + b;\n}\n"
        "async function* gen() {}\nclass Box {}\n"
        "const twice = (x) => 2 * x;\nconst half = x => x / 2;\nconst N = 3;\n\n"
        "module.exports = { add, gen, Box, twice, half };\n"
    )
    exported = "function add(a, b) { return a + b; }\nexports.add = add;\n"
    assert strip_usage_javascript(exported) == exported


def test_java_tests_cut_mid_statement_keep_the_complete_ones() -> None:
    head = (
        "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n"
        "class RTest {\n    @Test\n    void one() {\n        assertEquals(\"}\", R.f('{'));"
        "  // }\n    }\n"
        "    @Test\n    void two() {\n        for (int i = 0; i < 2; i++) {}\n"
        '        assertEquals("X", R.f(10));'
    )
    cut = head + '\n        assertEquals("XC'
    assert fix_java_tests(cut, "R", []) == head + "\n    }\n}\n"
    whole = head + "\n    }\n}\n"
    assert fix_java_tests(whole, "R", []) == whole


def test_python_module_loses_its_own_test_functions() -> None:
    source = (
        "def add(a, b):\n    return a + b\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\n"
        "class TestAdd:\n    def test_x(self):\n        pass\n\n\ndef testing_helper():\n"
        "    return 1\n"
    )
    assert strip_usage_python(source) == (
        "def add(a, b):\n    return a + b\n" + "\n" * 6 + "def testing_helper():\n    return 1\n"
    )


def test_javascript_usage_is_read_as_code_not_as_words() -> None:
    # a scanner kept the assert require for a comment's "assert", stopped at the template
    # literal's "(" and saw an export in a comment
    source = (
        "const assert = require('assert');\n// assert the input, then module.exports it\n"
        "function f(x) {\n  return `(${x}`;\n}\n\n"
        "test('f', () => {\n  assert.equal(f(1), `(1`);\n});\n"
    )
    assert strip_usage_javascript(source) == (
        "// assert the input, then module.exports it\nfunction f(x) {\n  return `(${x}`;\n}\n"
        "\nmodule.exports = { f };\n"
    )


def test_javascript_test_files_are_fixed_by_what_they_declare_and_call() -> None:
    # an unbalanced-looking string is no unfinished tail; a comment naming node:test is no
    # require; names another framework binds are not declared twice
    source = (
        "// uses node:test\ntest('a', () => {\n  assert.equal(f(')'), 1);\n});\n\n"
        "function helper() {\n  return 1;\n}\n"
    )
    fixed = fix_javascript_tests(source, "m", [])
    assert fixed.endswith(source)
    assert "const { test, describe, it } = require('node:test');" in fixed
    mocha = "const { describe, it } = require('mocha');\nconst assert = require('assert');\n"
    mocha += "describe('m', () => {\n  it('a', () => assert.ok(f()));\n});\n"
    assert fix_javascript_tests(mocha, "m", []) == (
        "Object.assign(globalThis, require('./m'));\n" + mocha
    )


def test_a_javascript_test_file_cut_off_keeps_its_complete_tests() -> None:
    """A js-wrap test design cut at the token limit after 26 counting tests: the parser's
    recovery wrapped the whole file in one error node, the tail was kept, and the file
    (every test in it) failed to load."""
    block = """test('R{n}: wrapText("the quick brown fox", {w}) returns ["the"]', () => {{
  assert.deepStrictEqual(wrapText("the quick brown fox", {w}), ["the"]);
}});

"""
    complete = "".join(block.format(n=n, w=89 + n) for n in range(1, 26))
    source = complete + """test('R26: wrapText("the quick brown fox", 116)', () => {\n  assert"""
    fixed = fix_javascript_tests(source, "wrap", [])
    assert not parse("javascript", fixed).has_error
    assert fixed.rstrip().endswith(complete.rstrip()) and "R26" not in fixed


def test_java_is_tidied_by_its_code_not_its_strings_and_comments() -> None:
    # a scanner renamed the class inside a string, read a text block's quoted brace as
    # code (so a whole file looked cut off) and its quoted words as classes used
    src = 'public class Calc {\n  String name() { return "Calc"; } // Calc\n}\n'
    assert rename_java_class(src, "Adder") == (
        'public class Adder {\n  String name() { return "Calc"; } // Calc\n}\n'
    )
    block = (
        "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n"
        'class RTest {\n    @Test\n    void one() {\n        assertEquals("""\n'
        '            "{" "Arrays"\n            """, R.f());\n    }\n}\n'
    )
    assert fix_java_tests(block, "R", []) == block
    noted = "// uses Assertions\nclass T {\n  @Test\n  void a() { assertTrue(true); }\n}\n"
    assert "import static org.junit.jupiter.api.Assertions.*;" in fix_java_tests(noted, "T", [])


def _run_test(source: str, module: str, code: str) -> object:
    """What the test file's ``check()`` returns, the module being ``code``."""
    import sys
    import types

    fake = types.ModuleType(module)
    exec(code, fake.__dict__)  # a fixed two-line module of this test
    sys.modules[module] = fake
    try:
        scope: dict[str, object] = {}
        exec(compile(source, "test_file.py", "exec"), scope)
        return scope["check"]()  # type: ignore[operator]
    finally:
        del sys.modules[module]


def test_a_copy_of_the_function_under_test_does_not_shadow_the_module() -> None:
    stub = "def get_row(lst, x):\n    pass\n\n\ndef check():\n    return get_row([[1]], 1)\n"
    star = fix_python_tests(stub, "grid", [])
    assert star.count("from grid import *") == 2  # the missing import, then the one that wins
    assert fix_python_tests(star, "grid", []) == star  # fixed once
    assert _run_test(star, "grid", "def get_row(lst, x):\n    return [(0, 0)]\n") == [(0, 0)]

    named = "from grid import get_row as row\n\n\ndef row(lst, x):\n    return 'copy'\n\n\n"
    named += "def helper():\n    return 1\n\n\ndef check():\n    return row([[1]], 1), helper()\n"
    fixed = fix_python_tests(named, "grid", [])
    assert fixed.rstrip().endswith("from grid import get_row as row  # noqa: E402, F403")
    assert _run_test(fixed, "grid", "def get_row(lst, x):\n    return 'module'\n") == (
        "module",
        1,
    )


def test_a_test_file_without_copies_is_left_as_it_is() -> None:
    src = "from grid import get_row\n\n\ndef helper():\n    return 1\n\n\ndef test_a():\n"
    src += "    assert get_row([], helper()) == []\n"
    assert fix_python_tests(src, "grid", []) == src
