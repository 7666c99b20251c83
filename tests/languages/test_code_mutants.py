"""Code mutants per operator and language, regex edits, and the generated checks.

Each case gives a small source and the one change a careless implementation makes; the
mutant with that change must be among those generated (and only parsing mutants are).
The in-memory Python toolchain runs the generated Python checks; the JavaScript and Java
ones run on the real toolchains in ``tests/workflow/test_proof_real.py``.
"""

from __future__ import annotations

import ast

import pytest

from codeproof.core.types import Module
from codeproof.languages import registry
from codeproof.languages.code_mutants import CodeMutant
from codeproof.languages.regex_mutants import regex_variants, scan
from codeproof.languages.syntax import parse
from inproc import run_tests

PY = '''import re

LIMIT = 3


def clamp(values, low):
    """Keep values not below low; stop at LIMIT items."""
    out = []
    for v in values:
        if v < low and not v == 0:
            continue
        out.append(v * 2 + 1)
        if len(out) >= LIMIT or v is None:
            break
    return out


def is_word(text):
    return bool(re.fullmatch(r"[a-z]+\\d?", text)) and text != ""
'''

JS = """const LIMIT = 3;
function clamp(values, low) {
  const out = [];
  for (const v of values) {
    if (v < low && !(v === 0)) continue;
    out.push(v * 2 + 1);
    if (out.length >= LIMIT || v === null) break;
  }
  return out;
}
const isWord = (text) => /^[a-z]+\\d?$/.test(text) && text !== '';
function ok(n) { return n % 2 === 0; }
module.exports = { clamp, isWord, ok };
"""

JAVA = """import java.util.*;

public class Clamp {
    static final int LIMIT = 3;

    public static List<Integer> clamp(List<Integer> values, int low) {
        List<Integer> out = new ArrayList<>();
        for (int v : values) {
            if (v < low && !(v == 0)) continue;
            out.add(v * 2 + 1);
            if (out.size() >= LIMIT) break;
        }
        return out;
    }

    public boolean isWord(String text) {
        if (text == null) throw new IllegalArgumentException("no text");
        return text.matches("[a-z]+\\\\d?") && !text.isEmpty();
    }

    public int half(int n) { return n / 2; }

    public String name() { return "clamp"; }
}
"""

SOURCES = {"python": PY, "javascript": JS, "java": JAVA}

EXPECTED = {
    "python": [
        ("arithmetic", "v * 2 + 1", "v * 2 - 1"),
        ("arithmetic", "v * 2", "v / 2"),
        ("boundary", "v < low", "v <= low"),
        ("comparison", "v < low", "v >= low"),
        ("comparison", "v == 0", "v != 0"),
        ("comparison", "v is None", "v is not None"),
        ("logical", "v < low and not v == 0", "v < low or not v == 0"),
        ("negation", "not v == 0", "v == 0"),
        ("constant", "3", "4"),
        ("constant", "2", "1"),
        ("constant", '""', "'x'"),
        ("return value", "return out", "return None"),
        ("removed statement", "out.append(v * 2 + 1)", "pass"),
        ("removed statement", "continue", "pass"),
        ("regex", 'r"[a-z]+\\d?"', 'r"[a-z]\\d?"'),
        ("regex", 'r"[a-z]+\\d?"', 'r"[^a-z]+\\d?"'),
        ("regex", 'r"[a-z]+\\d?"', 'r"[a-z]+\\D?"'),
    ],
    "javascript": [
        ("arithmetic", "v * 2 + 1", "v * 2 - 1"),
        ("boundary", "v < low", "v <= low"),
        ("comparison", "v === 0", "v !== 0"),
        ("logical", "out.length >= LIMIT || v === null", "out.length >= LIMIT && v === null"),
        ("negation", "!(v === 0)", "(v === 0)"),
        ("constant", "3", "4"),
        ("constant", "''", "'x'"),
        ("return value", "return out;", "return null;"),
        ("return value", "return n % 2 === 0;", "return !(n % 2 === 0);"),
        ("removed statement", "out.push(v * 2 + 1);", ";"),
        ("regex", "^[a-z]+\\d?$", "[a-z]+\\d?$"),
        ("regex", "^[a-z]+\\d?$", "^[a-z]*\\d?$"),
    ],
    "java": [
        ("arithmetic", "v * 2 + 1", "v * 2 - 1"),
        ("arithmetic", "n / 2", "n * 2"),
        ("boundary", "out.size() >= LIMIT", "out.size() > LIMIT"),
        ("comparison", "text == null", "text != null"),
        ("logical", 'text.matches("[a-z]+\\\\d?") && !text.isEmpty()', None),
        ("constant", "3", "2"),
        ("return value", "return out;", "return null;"),
        ("return value", "return n / 2;", "return 0;"),
        ("return value", 'return "clamp";', 'return "";'),
        ("removed statement", "out.add(v * 2 + 1);", ";"),
        ("regex", '"[a-z]+\\\\d?"', '"[a-z]+\\\\D?"'),
    ],
}


def _mutants(language: str) -> list[CodeMutant]:
    generate = registry.language_for(language).proving.mutants
    assert generate is not None
    return generate(SOURCES[language])


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_every_operator_makes_the_expected_mutants(language: str) -> None:
    found = {(m.operator, m.before, m.after) for m in _mutants(language)}
    for operator, before, after in EXPECTED[language]:
        hits = [f for f in found if f[0] == operator and f[1] == before]
        assert hits, f"no {operator} mutant of {before!r} among {sorted(found)}"
        if after is not None:
            assert (operator, before, after) in found, sorted(hits)


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_mutants_parse_differ_once_each_and_change_one_place(language: str) -> None:
    mutants = _mutants(language)
    source = SOURCES[language]
    assert len({m.source for m in mutants}) == len(mutants) > 20
    for mutant in mutants:
        assert mutant.source != source
        assert not parse(language, mutant.source).has_error
        # one edit, within the snippet the label shows: the rest is the original's
        start = next(
            i for i, (a, b) in enumerate(zip(source, mutant.source, strict=False)) if a != b
        )
        end = 0
        while end < len(source) - start and source[-1 - end] == mutant.source[-1 - end]:
            end += 1
        assert source[start : len(source) - end] in mutant.before
        assert mutant.after in mutant.source
    if language == "python":
        for mutant in mutants:
            ast.parse(mutant.source)


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_docstrings_imports_and_error_messages_are_left_alone(language: str) -> None:
    untouched = {
        "python": ["Keep values not below low", "import re"],
        "javascript": ["module.exports = { clamp, isWord, ok };"],
        "java": ['"no text"', "import java.util.*;"],
    }[language]
    for mutant in _mutants(language):
        for text in untouched:
            assert text in mutant.source, mutant.label


def test_a_source_that_does_not_parse_has_no_mutants() -> None:
    generate = registry.language_for("python").proving.mutants
    assert generate is not None
    assert generate("def f(x:\n    return x +\n") == []


def test_python_raw_patterns_stay_raw_and_labels_say_what_changed() -> None:
    mutants = [m for m in _mutants("python") if m.operator == "regex"]
    assert all(m.after.startswith('r"') for m in mutants)
    assert any(m.label == 'line 19 (regex): `r"[a-z]+\\d?"` -> `r"[a-z]\\d?"`' for m in mutants)


def test_regex_scanner_reads_classes_escapes_and_quantifiers() -> None:
    pieces = scan(r"^[^a-z\]0-9]+\d{2,3}?(?:x|y)*$")
    kinds = [p.kind for p in pieces]
    assert kinds[:4] == ["anchor", "class", "quantifier", "escape"]
    assert pieces[1].negated and len(pieces[1].items) == 3
    assert kinds.count("quantifier") == 3 and kinds[-1] == "anchor"
    assert scan("[abc") == []  # an open class is not read


def test_regex_variants_are_distinct_compiling_edits() -> None:
    variants = dict((new, what) for what, new in regex_variants(r"[^a-z0-9]+"))
    assert variants == {
        "[a-z0-9]+": "class not negated",
        "[^0-9]+": "`a-z` left out of `[^a-z0-9]`",
        "[^a-z]+": "`0-9` left out of `[^a-z0-9]`",
        "[^a-z0-9]": "`+` dropped",
        "[^a-z0-9]*": "`+` -> `*`",
    }
    assert ("anchor `^` dropped", r"\d+$") in regex_variants(r"^\d+$")
    assert ("`\\s` -> `\\S`", r"a\Sb") in regex_variants(r"a\sb")


MODULE = Module(name="clamp", purpose="", language="python", public_interface="clamp(values, low)")

CLAMP = "def clamp(values, low):\n    return [v for v in values if v >= low]\n"


def test_python_checks_pass_on_the_code_and_fail_on_another_result() -> None:
    make = registry.language_for("python").proving.checks
    assert make is not None
    checks = [
        ("clamp([1, 5], 2)", "[5]"),
        ("clamp([], 0)", "[]"),
        ("clamp(None, 0)", "!TypeError"),
        ("clamp([1.5], 1)", "[1.5]"),
        ("clamp([1], 0)", "<object at 0x1>"),  # not a literal: no check
    ]
    files = make(MODULE, checks)
    assert list(files) == ["test_clamp_proof.py"]
    text = files["test_clamp_proof.py"]
    assert text.count("def test_proof_") == 4 and "pytest.approx([1.5], rel=1e-8)" in text
    report = run_tests({"clamp.py": CLAMP}, files)
    assert report.passed == report.total == 4
    wrong = CLAMP.replace(">=", "<")
    assert run_tests({"clamp.py": wrong}, files).passed == 2  # [1, 5], 2 and [1.5], 1 differ
