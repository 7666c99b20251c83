"""One function of a JavaScript draft put in another (languages/javascript/recombine.py)."""

from __future__ import annotations

from codeproof.languages.javascript.recombine import calls_by_test, splice

BASE = (
    "'use strict';\nconst fs = require('fs');\n\n"
    "function double(x) { return x * 2; }\n\nfunction shout(x) { return String(x); }\n\n"
    "module.exports = { double, shout };\n"
)
DONOR = (
    "const path = require('path');\nconst BANG = '!';\nconst LOUD = BANG + BANG;\n"
    "function bang(s) { return s + LOUD; }\n"
    "function double(x) { return x + 2; }\nconst shout = (x) => bang(String(x));\n"
    "module.exports = { double, shout };\n"
)


def test_the_function_comes_with_what_it_uses_dependencies_first() -> None:
    spliced = splice({"calc.js": BASE}, {"calc.js": DONOR}, "shout")
    assert spliced is not None
    code = spliced["calc.js"]
    assert "return x * 2" in code and "const shout = (x) => bang(String(x));" in code
    assert "require('path')" not in code  # shout does not use it
    # a constant read as the module loads comes before what reads it
    assert code.index("const BANG") < code.index("const LOUD") < code.index("function bang")
    assert code.index("function bang") < code.index("const shout") < code.index("module.exports")


def test_nothing_is_spliced_where_the_drafts_disagree_or_agree() -> None:
    clash = BASE.replace("module.exports", "const BANG = '?';\nmodule.exports")
    assert splice({"calc.js": clash}, {"calc.js": DONOR}, "shout") is None  # BANG differs
    assert splice({"calc.js": BASE}, {"calc.js": BASE}, "shout") is None
    esm = DONOR.replace("const shout =", "export const shout =")
    assert splice({"calc.js": BASE}, {"calc.js": esm}, "shout") is None  # exported otherwise
    assert splice({"calc.js": BASE}, {"calc.js": DONOR}, "missing") is None


def test_each_test_names_the_module_functions_it_calls() -> None:
    tests = {
        "calc.examples.test.js": (
            "const { test } = require('node:test');\n"
            'test("spec example 1: double(3)", () => { assert.equal(double(3), 6); });\n'
            "describe('both', () => { it('round', () => { shout(double(1)); }); });\n"
        ),
        "README.md": "double(1)",
    }
    assert calls_by_test(tests, {"double", "shout"}) == {
        "spec example 1: double(3)": frozenset({"double"}),
        "both > round": frozenset({"double", "shout"}),
    }
