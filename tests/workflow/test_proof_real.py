"""The proof on the real toolchains (Docker sandbox), one module per language.

A slug maker whose chosen code passes weak tests: its code mutants are probed and run
against the tests in the sandbox, the drafts' disagreement on ``a - b`` becomes a
question, so does a designed test the choice removed, and generated checks (pytest,
``node:test``, JUnit) of the agreed outputs kill survivors, pass on the chosen code and
fail on the mutants they target.
"""

from __future__ import annotations

from typing import Any

import pytest

from codeproof.core.types import Module, Spec
from codeproof.engine.context import Context, EngineOptions
from codeproof.engine.proving import prove
from codeproof.engine.state import Draft, Work
from codeproof.llm.base import ChatModel
from codeproof.toolchains.client import ToolchainClient

CASES: dict[str, dict[str, Any]] = {
    "python": {
        "path": "slugify.py",
        "tests": {
            "test_slugify.py": "from slugify import slugify\n\n\ndef test_words():\n"
            '    assert slugify("Hello World") == "hello-world"\n\n\ndef test_lower():\n'
            '    assert slugify("ABC") == "abc"\n'
        },
        "chosen": 'def slugify(text):\n    return "-".join(text.lower().split())\n',
        "others": [
            'import re\n\n\ndef slugify(text):\n    return re.sub(r"[^a-z0-9]+", "-", '
            'text.lower()).strip("-")\n',
            'import re\n\n\ndef slugify(text):\n    return "-".join(w for w in '
            're.split(r"[^a-z0-9]+", text.lower()) if w)\n',
        ],
        "inputs": ['slugify("a - b")', 'slugify("x,y")', 'slugify("")'],
        "question": "slugify('a - b')",
        "removed": 'def test_comma():\n    assert slugify("Hello, World") == "hello-world"\n',
    },
    "javascript": {
        "path": "slugify.js",
        "tests": {
            "slugify.test.js": "const { test } = require('node:test');\n"
            "const assert = require('node:assert/strict');\n"
            "const { slugify } = require('./slugify');\n"
            "test('words', () => { assert.strictEqual(slugify('Hello World'), 'hello-world'); });\n"
            "test('lower', () => { assert.strictEqual(slugify('ABC'), 'abc'); });\n"
        },
        "chosen": "function slugify(text) {\n  return text.toLowerCase().split(/\\s+/)"
        ".filter((w) => w.length > 0).join('-');\n}\nmodule.exports = { slugify };\n",
        "others": [
            "function slugify(text) {\n  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-')"
            ".replace(/^-+|-+$/g, '');\n}\nmodule.exports = { slugify };\n",
            "function slugify(text) {\n  return text.toLowerCase().split(/[^a-z0-9]+/)"
            ".filter(Boolean).join('-');\n}\nmodule.exports = { slugify };\n",
        ],
        "inputs": ['slugify("a - b")', 'slugify("x,y")', 'slugify("")'],
        "question": 'slugify("a - b")',
        "removed": "test('comma', () => "
        "{ assert.strictEqual(slugify('Hello, World'), 'hello-world'); });\n",
    },
    "java": {
        "path": "Slug.java",
        "tests": {
            "SlugTest.java": "import org.junit.jupiter.api.Test;\n"
            "import static org.junit.jupiter.api.Assertions.*;\n\nclass SlugTest {\n"
            "    @Test void words() {\n"
            '        assertEquals("hello-world", new Slug().slugify("Hello World"));\n    }\n'
            '    @Test void lower() { assertEquals("abc", new Slug().slugify("ABC")); }\n}\n'
        },
        "chosen": "public class Slug {\n    public String slugify(String text) {\n"
        '        return String.join("-", text.toLowerCase().trim().split("\\\\s+"));\n    }\n}\n',
        "others": [
            "public class Slug {\n    public String slugify(String text) {\n"
            '        return text.toLowerCase().replaceAll("[^a-z0-9]+", "-")'
            '.replaceAll("^-+|-+$", "");\n    }\n}\n',
            "public class Slug {\n    public String slugify(String text) {\n"
            '        String s = text.toLowerCase().replaceAll("[^a-z0-9]+", "-");\n'
            '        while (s.startsWith("-")) s = s.substring(1);\n'
            '        while (s.endsWith("-")) s = s.substring(0, s.length() - 1);\n'
            "        return s;\n    }\n}\n",
        ],
        "inputs": ['slugify("a - b")', 'slugify("x,y")', 'slugify("Hello World")'],
        "question": 'slugify("a - b")',
        "removed": "    @Test void comma() "
        '{ assertEquals("hello-world", new Slug().slugify("Hello, World")); }\n',
    },
}


def _no_model(scope: str) -> ChatModel:
    raise AssertionError(f"the proof asked the model ({scope}) with enough drafts")


@pytest.mark.docker
@pytest.mark.slow
@pytest.mark.parametrize("language", ["python", "javascript", "java"])
def test_the_proof_runs_on_the_real_toolchain(language: str, request: pytest.FixtureRequest):
    toolchain: ToolchainClient = request.getfixturevalue(f"{language}_toolchain")
    case = CASES[language]
    name = "Slug" if language == "java" else "slugify"
    module = Module(name=name, purpose="slugs", language=language, public_interface="slugify(text)")
    spec = Spec(title="Slugify", summary="Runs become one hyphen.", language=language)
    ctx = Context(
        spec=spec,
        module=module,
        words="slugify",
        toolchain=toolchain,
        model_for=_no_model,
        direct=lambda model, index, greedy: {},
        # no model here: the judge's reading of the defaults is tested with a scripted one
        options=EngineOptions(proof_budget_s=300, mutants=12, read_defaults=False),
    )
    chosen = {case["path"]: case["chosen"]}
    drafts = [chosen, *({case["path"]: code} for code in case["others"])]
    report = ctx.run_tests(chosen, case["tests"])
    assert report.green, report.message or report.tests
    [(test_path, kept)] = case["tests"].items()
    removed = case["removed"]  # a designed test the choice removed: the code contradicts it
    designed = kept[:-2] + removed + "}\n" if language == "java" else f"{kept}\n\n{removed}"
    work = Work(
        files=chosen,
        tests=case["tests"],
        designed={test_path: designed},
        report=report,
        verdict="passed",
        inputs=case["inputs"],
        drafts=[Draft(files=d, source="direct", index=i) for i, d in enumerate(drafts)],
    )

    proven = prove(ctx, work)

    proof = proven.proof
    assert proof is not None and proof.drafts == 3
    assert [q.call for q in proven.pending][-1:] == [case["question"]]
    question = proven.pending[-1]  # the split (the contradicted check is asked first)
    assert question.default != next(c.value for c in question.choices if c.chosen)
    [disputed] = [q for q in proven.pending if q.disputes_a_test]
    assert "Hello, World" in disputed.call and "hello,-world" in disputed.default
    assert [c.tests for c in disputed.choices] == [0, 1]
    assert "hello-world" in disputed.choices[1].value
    mutation = proof.mutation
    assert mutation is not None and mutation.probed > 0 and mutation.tested > 0
    assert mutation.score is not None and 0 < mutation.score <= 1
    added = [path for path in proven.tests if path not in case["tests"]]
    assert added == proof.files
    if language != "python":  # (two mutants of the Python one-liner: both killed)
        # the checks pass on the chosen code and kill the survivors they target
        assert proof.added and all(check.origin == "agreement" for check in proof.added)
        assert proven.report is not None and proven.report.green
        assert proven.report.total > report.total
        assert all(check.kills for check in proof.added)
        assert mutation.killed_by_checks >= 1
