"""The syntax facade on Java: text blocks, char literals and comments never confuse it."""

from __future__ import annotations

import pytest

from codeproof.languages.syntax import parse, parse_expression

JAVA_TRAPS = r'''import java.util.*;

class SolutionTest {
    // f(1) }
    /* f(2) { */
    String block = """
        {"f(3)": "}"
        \""" f(4) {
        """;
    char quote = '"', brace = '{';
    String s = "f(5) \" }";

    @Test
    void one() {
        assertEquals("}", new Solution().f('{', """
            )"""));
    }

    @org.junit.jupiter.api.Test
    @DisplayName("two { }")
    public void two() throws Exception {
        Assertions.assertTrue(m.f(1, -2L, 0x1F, 010, 1_000, 2.5e-1f, "é\s"));
        assertThrows(IllegalArgumentException.class, () -> m.f(-1));
        assertThat(m.f(7)).isEqualTo(List.of(1, 2));
        fail("unreachable");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void three(int x) { assertNotNull(x); }

    int f(int a) { return a; }

    static class Nested {
        @RepeatedTest(2)
        void four() {}
    }
}
'''


def test_java_calls_are_found_only_in_code() -> None:
    tree = parse("java", JAVA_TRAPS)
    assert not tree.has_error
    calls = tree.calls({"f"})
    assert [c.arguments.text[:9] for c in calls] == [
        "('{', \"\"\"", "(1, -2L, ", "(-1)", "(7)",
    ]  # fmt: skip
    first = calls[0]
    assert first.receiver is not None and first.receiver.text == "new Solution()"
    assert [a.value() for a in first.args] == [(True, "{"), (True, ")")]
    assert [a.value() for a in calls[1].args] == [
        (True, 1), (True, -2), (True, 31), (True, 8), (True, 1000), (True, 0.25), (True, "é "),
    ]  # fmt: skip
    assert all(a.constant() for a in calls[1].args)


def test_java_tests_with_their_annotations_and_classes() -> None:
    tree = parse("java", JAVA_TRAPS)
    cases = tree.tests()
    assert [(c.name, c.suite) for c in cases] == [
        ("one", ("SolutionTest",)),
        ("two", ("SolutionTest",)),
        ("three", ("SolutionTest",)),
        ("four", ("SolutionTest", "Nested")),
    ]
    assert cases[1].node.text.startswith("@org.junit.jupiter.api.Test\n    @DisplayName")
    assert cases[1].node.span.start_line == 19 and cases[1].node.span.end_line == 26
    assert cases[0].body is not None and cases[0].body.text.endswith(')"""));\n    }')


def test_java_assertions_and_their_arguments() -> None:
    tree = parse("java", JAVA_TRAPS)
    checks = tree.assertions(tree.tests()[1].node)
    assert [(a.name, [x.text for x in a.arguments]) for a in checks] == [
        ("assertTrue", ['m.f(1, -2L, 0x1F, 010, 1_000, 2.5e-1f, "é\\s")']),
        ("assertThrows", ["IllegalArgumentException.class", "() -> m.f(-1)"]),
        ("isEqualTo", ["m.f(7)", "List.of(1, 2)"]),
        ("fail", ['"unreachable"']),
    ]
    assert all(a.statement is not None and a.statement.text.endswith(";") for a in checks)


def test_java_declarations_with_modifiers_types_and_doc() -> None:
    source = (
        "/** The adder. */\npublic final class Adder {\n"
        "    /**\n     * Adds.\n     * @param a first\n     */\n"
        "    public static <T> List<T> add(int a, Map<String, List<T>> b) { return null; }\n"
        "    public Adder(int seed) {}\n    private void hidden() {}\n}\n"
    )
    found = parse("java", source).declarations()
    assert [(d.name, d.kind, d.owner, d.modifiers) for d in found] == [
        ("Adder", "class", "", ("public", "final")),
        ("add", "method", "Adder", ("public", "static")),
        ("Adder", "constructor", "Adder", ("public",)),
        ("hidden", "method", "Adder", ("private",)),
    ]
    add = found[1]
    assert add.parameters is not None and add.parameters.text == "(int a, Map<String, List<T>> b)"
    assert add.returns is not None and add.returns.text == "List<T>"
    assert add.type_parameters is not None and add.type_parameters.text == "<T>"
    assert add.doc == "Adds.\n@param a first" and found[0].doc == "The adder."
    assert all(d.top_level for d in found)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("'\\''", "'"), ("'\\u0041'", "A"), ("'\"'", '"'), ('"a\\"b\\101"', 'a"bA'),
        ('"""\n    hi\n      "there" {\n    """', 'hi\n  "there" {\n'),
        ('"""\n    a \\n\n    b"""', "a \n\nb"), ("010", 8), ("0b11", 3), ("-0x10L", -16),
        (".5d", 0.5), ("Arrays.asList(1, 2)", [1, 2]), ('new ArrayList<>(List.of("x"))', ["x"]),
        ("new int[][]{{1}, {}}", [[1], []]), ("Collections.emptyList()", []),
        ("null", None),
    ],
)  # fmt: skip
def test_java_literal_values(text: str, value: object) -> None:
    node = parse_expression("java", text)
    assert node is not None and node.value() == (True, value)


@pytest.mark.parametrize(
    ("text", "constant"),
    [
        ("Map.of(1, 2)", True), ("Set.of(1)", True), ("new ArrayList<>(3)", True),
        ("Integer.MAX_VALUE", True), ("(long) 3", True), ("x", False), ("s -> s", False),
        ("String::trim", False), ("new Solution().f(1)", False), ("1 + 2", True),
    ],
)  # fmt: skip
def test_java_expressions_without_a_value(text: str, constant: bool) -> None:
    node = parse_expression("java", text)
    assert node is not None and node.value() == (False, None)
    assert node.constant() is constant


@pytest.mark.parametrize("text", ["[1, 2]", "(1, 2)", "f(1", "a; b"])
def test_what_is_not_one_java_expression(text: str) -> None:
    assert parse_expression("java", text) is None


def test_unfinished_java_keeps_the_complete_methods() -> None:
    source = (
        JAVA_TRAPS.split("    @ParameterizedTest")[0] + '    @Test\n    void cut() {\n        f("'
    )
    tree = parse("java", source)
    assert tree.has_error
    assert [c.name for c in tree.tests()][:2] == ["one", "two"]
    assert tree.unclosed("{", "}") >= 2


def test_java_imports_package_and_names() -> None:
    source = (
        "package a.b;\nimport static org.junit.jupiter.api.Assertions.*;\n"
        'import java.util.List;\nclass X { List<String> s = "Map"; /* Set */ }\n'
    )
    tree = parse("java", source)
    found = [(d.name, d.kind, d.modifiers) for d in tree.declarations()][:3]
    assert found == [
        ("a.b", "package", ()),
        ("org.junit.jupiter.api.Assertions.*", "import", ("static",)),
        ("java.util.List", "import", ()),
    ]
    (cls,) = [d for d in tree.declarations() if d.kind == "class"]
    assert [n.text for n in tree.names(cls.node)] == ["X", "List", "String", "s"]
