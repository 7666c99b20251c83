"""A JavaScript test named with double quotes is reported by the name its file gives it,
so the engine finds it there (js-wrap at 8248f1c: Node 20 reported
``R3: wrapText(&quot;the quick brown fox&quot;, 1) ...``; the wrong test could be
neither set aside nor narrowed to)."""

from __future__ import annotations

from codeproof.languages.javascript.tests import find_javascript_test, remove_javascript_test
from codeproof.toolchains.client import ToolchainClient

CODE = "function f(s) {\n  return s.length;\n}\nmodule.exports = { f };\n"
TESTS = (
    "const test = require('node:test');\nconst assert = require('node:assert/strict');\n"
    "const { f } = require('./quoted');\n\n"
    'test(\'R1: f("ab") returns 3 & <more>\', () => {\n  assert.strictEqual(f("ab"), 3);\n});\n\n'
    'test(\'R2: f("") returns 0\', () => {\n  assert.strictEqual(f(""), 0);\n});\n'
)


def test_a_failing_test_named_with_quotes_is_found_in_its_file(
    javascript_toolchain: ToolchainClient,
) -> None:
    report = javascript_toolchain.run_tests({"quoted.js": CODE}, {"quoted.test.js": TESTS})

    assert [(t.name, t.outcome) for t in report.tests] == [
        ('R1: f("ab") returns 3 & <more>', "failed"),
        ('R2: f("") returns 0', "passed"),
    ]
    assert "&quot;" not in report.tests[0].message
    [failing] = report.failures
    assert find_javascript_test(TESTS, failing.name) is not None
    left = remove_javascript_test(TESTS, failing.name)
    assert left is not None and "R1" not in left and "R2" in left
