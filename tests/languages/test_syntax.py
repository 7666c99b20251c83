"""The syntax facade: one API over tree-sitter, and what must never confuse it.

Each language's adversarial cases put brackets and quotes where a scanner would trip on
them: in comments, strings, template literals, regular expressions and text blocks.
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from codeproof.core.errors import NoGrammarError
from codeproof.languages.syntax import (
    edit,
    find_grammar,
    grammar_for,
    parse,
    parse_expression,
    register,
)

JS_TRAPS = r"""// f(1) in a comment is no call {
/* f(2) ) { */
const s = "f(3) )";
const t = `f(4) ${ g(`}`) } )`;
const r = /f\(5\)[})"']/g;
f('a)b', `c}`, /[)]/, "it\"s", 'it\'s'); // )
"""


def test_javascript_calls_are_found_only_in_code() -> None:
    tree = parse("javascript", JS_TRAPS)
    assert not tree.has_error
    (call,) = tree.calls({"f"})
    assert call.arguments.text == """('a)b', `c}`, /[)]/, "it\\"s", 'it\\'s')"""
    assert [a.value() for a in call.args] == [
        (True, "a)b"), (True, "c}"), (False, None), (True, 'it"s'), (True, "it's"),
    ]  # fmt: skip
    assert call.statement is not None and call.statement.text.endswith(";")
    (inner,) = tree.calls({"g"})  # inside a template literal's substitution
    assert [a.value() for a in inner.args] == [(True, "}")]


def test_nested_calls_come_outer_first_with_their_own_arguments() -> None:
    tree = parse("javascript", "f(f(1), [f(2), {k: f(3)}]);\nobj.f(4);")
    calls = tree.calls({"f"})
    assert [c.arguments.text for c in calls] == [
        "(f(1), [f(2), {k: f(3)}])", "(1)", "(2)", "(3)", "(4)",
    ]  # fmt: skip
    assert [c.receiver.text if c.receiver else None for c in calls] == [None] * 4 + ["obj"]
    assert [a.constant() for a in calls[0].args] == [False, False]
    assert calls[1].statement is None  # an argument, not a statement


def test_unicode_before_a_node_does_not_shift_its_span() -> None:
    source = 'const s = "é😀 {";\nf(1);\n'
    (call,) = parse("javascript", source).calls({"f"})
    span = call.node.span
    assert source[span.start : span.end] == "f(1)" == call.node.text
    assert (span.start_line, span.end_line) == (2, 2)
    assert span.start_byte == len(source[: span.start].encode()) > span.start


def test_unfinished_javascript_keeps_what_is_complete() -> None:
    source = (
        "test('a', () => {\n  assert.equal(f(1), 2);\n});\n"
        "test('b', () => {\n  assert.equal(f(2), 'x}"
    )
    tree = parse("javascript", source)
    assert tree.has_error and tree.errors()
    assert tree.errors()[-1].end == len(source)
    assert tree.tests()[0].name == "a" and tree.tests()[0].node.text.endswith("})")
    assert "f(1)" in [c.node.text for c in tree.calls({"f"})]
    assert parse("javascript", "function f() {\n  if (x) {\n    return 1;").unclosed("{", "}") == 2
    assert parse("javascript", "const t = `${ {a: 1} }`; {").unclosed("{", "}") == 1


JS_TESTS = r"""const { test, describe, it } = require('node:test');
describe('outer', () => {
  describe("inner", () => {
    it(`adds "one"`, () => {
      assert.strictEqual(add(1, 2), 3); // })
    });
  });
  test('it\'s { here', { timeout: 10 }, async (t) => {
    expect(add(2)).not.toBe(-1);
    t.assert.deepStrictEqual(f('}'), [1]);
    [1].forEach((x) => assert.ok(x));
  });
});
test.only('solo', function () { assert(true); });
test(title, () => {});
"""


def test_javascript_tests_have_titles_suites_and_bodies() -> None:
    tree = parse("javascript", JS_TESTS)
    cases = tree.tests()
    assert [(c.name, c.suite) for c in cases] == [
        ('adds "one"', ("outer", "inner")),
        ("it's { here", ("outer",)),
        ("solo", ()),
    ]
    body = cases[1].body
    assert body is not None and body.text.startswith("{\n    expect(")  # not the options
    assert cases[0].node.text.startswith("it(`adds") and cases[0].node.text.endswith("})")


def test_javascript_assertions_in_a_test() -> None:
    tree = parse("javascript", JS_TESTS)
    checks = tree.assertions(tree.tests()[1].node)
    assert [(a.name, [x.text for x in a.arguments]) for a in checks] == [
        ("toBe", ["add(2)", "-1"]),
        ("deepStrictEqual", ["f('}')", "[1]"]),
        ("ok", ["x"]),
    ]
    assert [a.statement is not None for a in checks] == [True, True, False]
    assert [a.name for a in tree.assertions()] == ["strictEqual", "toBe", "deepStrictEqual",
                                                   "ok", "assert"]  # fmt: skip


JS_MODULE = """/**
 * Adds two numbers.
 */
function add(a, b = g(1, 2)) { return a + b; }
// Halves.
export const half = async x => x / 2;
const N = 3;
class Stack { push(x) { function inner() {} } static of() {} }
module.exports = { add, twice: half, Stack, run() {} };
exports.extra = add;
"""


def test_javascript_declarations_with_parameters_and_doc_comments() -> None:
    found = parse("javascript", JS_MODULE).declarations()
    assert [(d.name, d.kind, d.owner, d.top_level) for d in found] == [
        ("add", "function", "", True),
        ("half", "function", "", True),
        ("N", "variable", "", True),
        ("Stack", "class", "", True),
        ("push", "method", "Stack", True),
        ("inner", "function", "", False),
        ("of", "method", "Stack", True),
    ]
    add, half = found[0], found[1]
    assert add.parameters is not None and add.parameters.text == "(a, b = g(1, 2))"
    assert add.doc == "Adds two numbers." and half.doc == "Halves."
    assert half.modifiers == ("export", "const", "async") and half.parameters is not None
    assert half.parameters.text == "x"


def test_javascript_exports_in_every_form() -> None:
    exports = parse("javascript", JS_MODULE).exports()
    assert [(e.name, e.local) for e in exports] == [
        ("half", "half"), ("add", "add"), ("twice", "half"), ("Stack", "Stack"),
        ("run", None), ("extra", "add"),
    ]  # fmt: skip
    es = "export { a, b as c };\nexport default main;\nmodule.exports = function f() {};"
    assert [(e.name, e.local) for e in parse("javascript", es).exports()] == [
        ("a", "a"), ("c", "b"), ("default", "main"), ("f", "f"),
    ]  # fmt: skip
    assert (
        parse("javascript", "// module.exports = { x };\nconst s = 'exports.y = 1';").exports()
        == []
    )


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("'it\\'s'", "it's"), ('"tab\\tnl\\n\\x41\\u0042\\u{1F600}"', "tab\tnl\nAB😀"),
        ("`a\\`b`", "a`b"), ("-0x10", -16), ("1_000n", 1000), ("0b101", 5), ("1e3", 1000.0),
        ("[1, 'a', {k: 2, 'x y': [null, true], 3: false}]",
         [1, "a", {"k": 2, "x y": [None, True], "3": False}]),
        ("-Infinity", -math.inf), ("(  [] )", []),
    ],
)  # fmt: skip
def test_javascript_literal_values(text: str, value: object) -> None:
    node = parse_expression("javascript", text)
    assert node is not None and node.value() == (True, value) and node.constant()


@pytest.mark.parametrize(
    ("text", "constant"),
    [
        ("`a${x}`", False),
        ("[1, , 2]", True),
        ("{a}", False),
        ("x => 1", False),
        ("undefined", True),
        ("new Date(0)", False),
        ("f(1)", False),
        ("/a}/", True),
    ],
)
def test_javascript_expressions_without_a_value(text: str, constant: bool) -> None:
    node = parse_expression("javascript", text)
    assert node is not None and node.value() == (False, None)
    assert node.constant() is constant


@pytest.mark.parametrize("text", ["", "f(1", "1; 2", "a) + (b", "f(1) // c"])
def test_parse_expression_wants_exactly_one_expression(text: str) -> None:
    assert parse_expression("javascript", text) is None


def test_expression_spans_count_from_the_text() -> None:
    node = parse_expression("javascript", "  f(1, 'é')")
    assert node is not None and (node.start, node.end) == (2, 11)
    (arg,) = [a for a in node.tree.calls()[0].args if a.kind == "string"]
    assert (arg.start, arg.span.start_line, arg.text) == (7, 1, "'é'")


def test_grammars_come_from_the_language_packages() -> None:
    assert grammar_for("javascript").name == "javascript"
    assert find_grammar("cobol") is None
    with pytest.raises(NoGrammarError) as raised:
        grammar_for("cobol")
    assert raised.value.language == "cobol" and "codeproof.languages" in str(raised.value)
    js = grammar_for("javascript")
    renamed = dataclasses.replace(js, name="javascript-copy")
    register(renamed)
    assert parse("javascript-copy", "f(1)").calls()[0].name == "f"


def test_javascript_destructuring_and_imports_declare_names() -> None:
    source = (
        "const { a, b: [c, ...d], e = f } = require('x');\nconst [g = h] = i;\n"
        "import j, { k as l, m } from 'y';\nimport * as n from 'z';\n"
    )
    found = [(d.name, d.kind) for d in parse("javascript", source).declarations()]
    assert found == [
        ("a", "variable"), ("c", "variable"), ("d", "variable"), ("e", "variable"),
        ("g", "variable"), ("j", "import"), ("l", "import"), ("m", "import"), ("n", "import"),
    ]  # fmt: skip


def test_edits_remove_whole_statements_and_keep_the_rest_as_written() -> None:
    source = "a();\n\nf(1);\n\nconst s = `\n\n\n`;\nx(f(2), 3); // f\n"
    tree = parse("javascript", source)
    first, second = tree.calls({"f"})
    assert edit.remove(source, [first.node]) == "a();\n\nconst s = `\n\n\n`;\nx(f(2), 3); // f\n"
    # a node inside another goes with it; a node sharing its line keeps the line
    outer = tree.calls({"x"})[0]
    assert edit.remove(source, [second.node, outer.node]) == (
        "a();\n\nf(1);\n\nconst s = `\n\n\n`;\n // f\n"
    )
    assert edit.replace(source, [(0, 3, "b()"), (1, 2, "!"), (5, 5, "// new\n")]) == (
        "b();\n// new\n" + source[5:]
    )


def test_a_sign_on_something_else_has_no_value() -> None:
    for text in ("-'a'", "-x", "+[]", "-(-1)"):
        node = parse_expression("javascript", text)
        assert node is not None
        assert node.value() == ((True, 1) if text == "-(-1)" else (False, None))
