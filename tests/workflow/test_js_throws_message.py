"""``assert.throws(fn, 'message')`` is read as the writer meant it: the error's message
(languages/javascript/tidy.py ``_expected_messages``)."""

from __future__ import annotations

import pytest

from codeproof.languages.javascript.tidy import fix_tests
from codeproof.toolchains.client import ToolchainClient

HEAD = "const { ship } = require('./order');\n\n"


@pytest.mark.parametrize(
    ("check", "expected"),
    [
        (
            "assert.throws(() => ship(), 'cannot ship an order that is pending');",
            "assert.throws(() => ship(), { message: 'cannot ship an order that is pending' });",
        ),
        (
            'await assert.rejects(ship(), "cannot ship");',
            'await assert.rejects(ship(), { message: "cannot ship" });',
        ),
        (
            "assert.throws(() => ship(), `cannot ${a}`);",
            "assert.throws(() => ship(), { message: `cannot ${a}` });",
        ),
    ],
)
def test_a_string_where_the_error_goes_is_its_message(check: str, expected: str) -> None:
    fixed = fix_tests(
        f"{HEAD}test('t', async () => {{\n  {check}\n}});\n", "order.test.js", "order", []
    )
    assert f"  {expected}\n" in fixed


@pytest.mark.parametrize(
    "check",
    [
        "assert.throws(() => ship(), RangeError);",
        "assert.throws(() => ship(), { message: 'x' });",
        "assert.throws(() => ship(), 'x', 'shown when nothing is thrown');",  # Node's reading
        "assert.doesNotThrow(() => ship(), 'x');",
        "expect.throws(() => ship(), 'x');",
    ],
)
def test_anything_else_is_left_as_written(check: str) -> None:
    fixed = fix_tests(f"{HEAD}test('t', () => {{\n  {check}\n}});\n", "order.test.js", "order", [])
    assert f"  {check}\n" in fixed


TEST = """\
const test = require('node:test');
const assert = require('node:assert/strict');
const { ship } = require('./order');

test('shipping a pending order throws the stated message', () => {
  assert.throws(() => ship('pending'), 'cannot ship an order that is pending');
});
"""
RIGHT = (
    "function ship(state) { throw new Error(`cannot ship an order that is ${state}`); }\n"
    "module.exports = { ship };\n"
)
WRONG = "function ship(state) { throw new Error('no'); }\nmodule.exports = { ship };\n"


def test_the_right_code_passes_and_the_wrong_one_fails_once_fixed(
    javascript_toolchain: ToolchainClient,
) -> None:
    def passed(code: str, tests: str) -> int:
        report = javascript_toolchain.run_tests({"order.js": code}, {"order.test.js": tests}, 60)
        assert report.total == 1
        return report.passed

    fixed = fix_tests(TEST, "order.test.js", "order", [])
    assert (passed(RIGHT, TEST), passed(WRONG, TEST)) == (0, 1)  # as Node reads it
    assert (passed(RIGHT, fixed), passed(WRONG, fixed)) == (1, 0)
