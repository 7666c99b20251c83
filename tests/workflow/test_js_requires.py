"""A JavaScript draft that requires a dependency whole, where the dependency exports the
name as one property, gets the name (js-calculator: ``const tokenize =
require('./tokenizer')`` failed every test of ``calc.js`` with "tokenize is not a
function")."""

from __future__ import annotations

from codeproof.core.types import Module, Spec
from codeproof.engine.context import Context
from codeproof.engine.drafting import first_draft
from codeproof.engine.state import Work
from codeproof.languages.javascript.requires import fit_requires
from codeproof.llm.fake import FakeModel
from codeproof.toolchains.client import ToolchainClient

TOKENIZER = (
    "function tokenize(expr) {\n  return expr.split('+').map(Number);\n}\n"
    "function unused() {}\nmodule.exports = { tokenize, unused };\n"
)
CALC = (
    "const tokenize = require('./tokenizer');\n\n"
    "function evaluate(expr) {\n  return tokenize(expr).reduce((a, b) => a + b, 0);\n}\n"
    "module.exports = { evaluate };\n"
)
TESTS = (
    "const test = require('node:test');\nconst assert = require('node:assert/strict');\n"
    "const { evaluate } = require('./calc');\n\n"
    "test('sum', () => { assert.strictEqual(evaluate('1+2+3'), 6); });\n"
)
DEPS = {"tokenizer.js": TOKENIZER}


def test_a_name_the_dependency_exports_as_a_property_is_destructured() -> None:
    fitted = fit_requires(CALC, "calc.js", DEPS)
    assert fitted.startswith("const { tokenize } = require('./tokenizer');\n")
    assert fitted.replace("{ tokenize }", "tokenize", 1) == CALC  # nothing else changes


def test_what_works_already_is_left_alone() -> None:
    whole = {"tokenizer.js": "function tokenize(e) {}\nmodule.exports = tokenize;\n"}
    assert fit_requires(CALC, "calc.js", whole) == CALC  # the module is the function
    as_object = "const tokenize = require('./tokenizer');\ntokenize.tokenize('1');\n"
    assert fit_requires(as_object, "calc.js", DEPS) == as_object
    other = "const tokenize = require('./lexer');\ntokenize('1');\n"
    assert fit_requires(other, "calc.js", DEPS) == other  # not a dependency's file
    assert fit_requires(CALC, "calc.js", {}) == CALC


def test_the_engine_fits_a_draft_and_the_draft_then_runs(
    javascript_toolchain: ToolchainClient,
) -> None:
    module = Module(
        name="calc",
        purpose="Evaluate sums.",
        language="javascript",
        public_interface="evaluate(expr)",
        depends_on=["tokenizer"],
    )
    ctx = Context(
        spec=Spec(title="Calc", summary="Sums.", language="javascript"),
        module=module,
        words="calc.js exports evaluate(expr), which uses tokenize from tokenizer.js",
        toolchain=javascript_toolchain,
        model_for=lambda scope: FakeModel(),
        direct=lambda model, index, greedy: {"calc.js": CALC},
        dependencies=[
            Module(
                name="tokenizer",
                purpose="Split sums.",
                language="javascript",
                public_interface="tokenize(expr)",
            )
        ],
        dependency_files=DEPS,
    )

    draft = first_draft(ctx, Work())

    assert draft.files["calc.js"].startswith("const { tokenize } = require('./tokenizer');")
    report = ctx.run_tests(draft.files, {"calc.test.js": TESTS})
    assert report.green and report.passed == 1
    written = ctx.run_tests({"calc.js": CALC}, {"calc.test.js": TESTS})
    assert not written.green  # as the model wrote it: "tokenize is not a function"
    assert "tokenize is not a function" in written.tests[0].message


def test_an_export_used_without_a_require_is_required() -> None:
    # js-cart at 639a211: cart.js called formatPrice without requiring pricing.js
    calc = (
        "'use strict';\n\nfunction evaluate(expr) {\n  return tokenize(expr)[0];\n}\n"
        "module.exports = { evaluate };\n"
    )
    fitted = fit_requires(calc, "calc.js", DEPS)
    assert fitted.startswith("'use strict';\nconst { tokenize } = require('./tokenizer');\n")
    for bound in (
        "const { tokenize } = require('./tokenizer');\nconst x = tokenize('1');\n",
        "function f(tokenize) { return tokenize('1'); }\n",
        "const f = ({ tokenize }) => tokenize('1');\n",
        "const t = require('./tokenizer');\nconst x = t.tokenize('1');\n",
        "let tokenize;\ntokenize = 1;\n",
        "const x = other('1');\n",  # not a dependency's export
    ):
        assert fit_requires(bound, "calc.js", DEPS) == bound


def test_a_test_using_a_declared_name_unbound_requires_its_module() -> None:
    # js-calculator at 639a211: "tokenize is not defined" in the tests of calc.js
    from codeproof.languages.javascript.fit import fit_tests
    from codeproof.languages.reading import Declared

    project = [
        Declared("calc", functions=frozenset({"evaluate"})),
        Declared("tokenizer", functions=frozenset({"tokenize"})),
    ]
    body = "test('t', () => {\n  assert.deepStrictEqual(tokenize('1'), evaluate('1'));\n});\n"
    head = "const { evaluate } = require('./calc');\n"
    assert fit_tests(head + body, project) == (
        "const { tokenize } = require('./tokenizer');\n" + head + body
    )
    required = "const t = require('./tokenizer');\n" + head + body
    assert fit_tests(required, project) == required  # the file requires that module
    bound = head + "const tokenize = (s) => [s];\n" + body
    assert fit_tests(bound, project) == bound
