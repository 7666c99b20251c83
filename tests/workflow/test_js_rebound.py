"""Re-assigned ``const`` bindings become ``let`` (languages/javascript/rebound.py)."""

from __future__ import annotations

import pytest

from cleaned import passed_as_written_and_cleaned
from codeproof.languages.javascript.rebound import let_rebound
from codeproof.languages.javascript.tidy import fix_source, fix_tests
from codeproof.toolchains.client import ToolchainClient

# The shipped slugify of a JavaScript request run (ef0269d): `word` is assigned only for
# a word longer than maxLength, so the TypeError waits for such a title.
SLUGIFY = """\
function slugify(title, maxLength = Infinity) {
  const words = title.trim().split(/\\s+/);
  let slug = '';
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word.length > maxLength) {
      word = word.slice(0, maxLength);
    }
    slug += word.toLowerCase() + '-';
  }
  return slug.slice(0, -1);
}

module.exports = { slugify };
"""


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("const a = 1;\na = 2;\n", "let a = 1;\na = 2;\n"),
        ("const n = 0;\nn += 1;\n", "let n = 0;\nn += 1;\n"),
        ("const i = 0;\ni++;\n", "let i = 0;\ni++;\n"),
        ("for (const w of ws) { w = w.trim(); }\n", "for (let w of ws) { w = w.trim(); }\n"),
        ("for (const i = 0; i < 3; i++) {}\n", "for (let i = 0; i < 3; i++) {}\n"),
        ("const { a, b: [c] } = o;\nc = 1;\n", "let { a, b: [c] } = o;\nc = 1;\n"),
        ("const [x, y] = p;\n[x, y] = [y, x];\n", "let [x, y] = p;\n[x, y] = [y, x];\n"),
        (
            "class C { m() { const q = 1; if (q) { q = 2; } } }\n",
            "class C { m() { let q = 1; if (q) { q = 2; } } }\n",
        ),
    ],
)
def test_a_const_assigned_again_is_declared_let(source: str, expected: str) -> None:
    assert let_rebound(source) == expected


@pytest.mark.parametrize(
    "source",
    [
        "const a = [];\na.push(1);\na[0] = 2;\nconst o = {};\no.k = 1;\n",  # contents change
        "const keep = 1;\nfunction g() { let keep = 2; keep = 3; }\n",  # shadowed by a let
        "const k = 1;\nconst h = (k) => { k = 5; };\n",  # shadowed by a parameter
        "const k = 1;\nfunction f(k) { k = 5; }\n",
        "const k = 1;\ntry {} catch (k) { k = 2; }\n",
        "const s = 'const t = 1; t = 2'; // const u = 1; u = 2\n",  # a string, a comment
        "let free = 1;\nfree = 2;\nundeclared = 3;\n",
    ],
)
def test_anything_else_is_left_as_written(source: str) -> None:
    assert let_rebound(source) == source


def test_the_clean_up_of_modules_and_tests_declares_them_let() -> None:
    fixed = fix_source(SLUGIFY, "slugify.js")
    assert "    let word = words[i];" in fixed and "const words" in fixed
    test = "const { slugify } = require('./slugify');\nconst t = 'a';\nt = 'b';\n"
    assert "let t = 'a';" in fix_tests(test, "slugify.test.js", "slugify", [])


TEST = """\
const test = require('node:test');
const assert = require('node:assert/strict');
const { slugify } = require('./slugify');

test('a word longer than maxLength is cut', () => {
  assert.strictEqual(slugify('Extraordinary day', 5), 'extra-day');
});
"""


def test_the_cleaned_module_runs_where_the_draft_threw(
    javascript_toolchain: ToolchainClient,
) -> None:
    tests = {"slugify.test.js": TEST}
    counts = passed_as_written_and_cleaned(
        javascript_toolchain, "javascript", "slugify.js", SLUGIFY, tests
    )
    assert counts == (0, 1)
