"""Designed tests that repeat an earlier one but for their names are dropped."""

from __future__ import annotations

import ast

from codeproof.core.types import Module, Spec
from codeproof.engine.context import Context, EngineOptions
from codeproof.engine.loop import prepare, start
from codeproof.evaluation.replay import replay_file
from codeproof.languages.syntax import parse
from codeproof.languages.test_edit import drop_repeated, repeated
from codeproof.llm.base import ChatModel
from codeproof.llm.fake import FakeModel, said
from inproc import memory_python_toolchain

PY = """import pytest
from flip import flip


def test_upper():
    assert flip("Hello") == "hELLO"


def test_empty():
    assert flip("") == ""


def test_edge_upper():
    assert flip("Hello")   ==   "hELLO"


@pytest.mark.parametrize("s", ["a"])
def test_param(s):
    assert flip(s) == s.swapcase()


@pytest.mark.parametrize("s", ["B"])
def test_param_again(s):
    assert flip(s) == s.swapcase()


class TestOther:
    def test_upper(self):
        assert flip("Hello") == "hELLO"


def test_edge_empty():
    assert flip("") == ""
"""

JS = """const { test, describe } = require('node:test');
const assert = require('node:assert');
const { flip } = require('./flip');

test('upper', () => {
  assert.strictEqual(flip('Hello'), 'hELLO');
});

test('upper again', () => {
  assert.strictEqual(flip('Hello'), 'hELLO');
});

describe('other', () => {
  test('upper', () => {
    assert.strictEqual(flip('Hello'), 'hELLO');
  });
});
"""

JAVA = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

class FlipTest {
    @Test
    void upper() { assertEquals("hELLO", Flip.flip("Hello")); }

    @Test
    void upperAgain() {
        assertEquals("hELLO", Flip.flip("Hello"));
    }
    @Test void upperOnceMore() { assertEquals("hELLO", Flip.flip("Hello")); }

    @Test
    void lower() { assertEquals("a", Flip.flip("A")); }
}
"""


def _names(language: str, source: str) -> list[str]:
    return [case.name for case in parse(language, source).tests()]


def test_python_repeats_are_dropped_and_the_file_still_reads() -> None:
    assert [case.name for case in repeated("python", PY)] == ["test_edge_upper", "test_edge_empty"]

    files, dropped = drop_repeated("python", {"test_flip.py": PY})

    assert dropped == ["test_edge_upper", "test_edge_empty"]
    kept = files["test_flip.py"]
    ast.parse(kept)
    # other parameters and another class are other tests, not repeats
    assert _names("python", kept) == [
        "test_upper",
        "test_empty",
        "test_param",
        "test_param_again",
        "test_upper",
    ]
    assert "\n\n\n\n" not in kept and kept.endswith('"hELLO"\n')


def test_javascript_and_java_repeats_are_dropped() -> None:
    files, dropped = drop_repeated("javascript", {"flip.test.js": JS})
    assert dropped == ["upper again"]
    assert _names("javascript", files["flip.test.js"]) == ["upper", "upper"]  # one in a suite
    assert not parse("javascript", files["flip.test.js"]).has_error

    files, dropped = drop_repeated("java", {"FlipTest.java": JAVA})
    assert dropped == ["upperAgain", "upperOnceMore"]
    kept = files["FlipTest.java"]
    assert _names("java", kept) == ["upper", "lower"] and not parse("java", kept).has_error
    assert "@Test\n    void lower()" in kept


def test_files_without_repeats_or_a_grammar_are_left_as_they_are() -> None:
    lone = {"test_a.py": "def test_a():\n    assert 1\n"}
    assert drop_repeated("python", lone) == (lone, [])
    assert repeated("cobol", PY) == []
    assert replay_file(with_repeats=True) == "replay-repeats.json"
    assert replay_file(with_inputs=False, with_repeats=True) == "replay-no-inputs-repeats.json"


def test_the_engine_drops_repeated_designed_tests() -> None:
    spec = Spec(title="Flip", summary="Swap the case.", language="python", interfaces=["flip(s)"])
    module = Module(
        name="flip", purpose="Swap case.", language="python", public_interface="flip(s)"
    )
    model = FakeModel(
        rules=[
            (
                lambda m: "You write python tests" in said(m),
                f"File: test_flip.py\n```python\n{PY}```\n",
            )
        ]
    )

    def direct(m: ChatModel, index: int, greedy: bool) -> dict[str, str]:
        return {"flip.py": "def flip(s):\n    return s.swapcase()\n"}

    ctx = Context(
        spec=spec,
        module=module,
        words="flip(s) swaps the case of every letter",
        toolchain=memory_python_toolchain(),
        model_for=lambda scope: model,
        direct=direct,
        options=EngineOptions(),
    )
    work = start(ctx, prepare(ctx))

    [source] = work.designed.values()
    names = _names("python", source)
    assert "test_edge_upper" not in names and "test_edge_empty" not in names
    assert names.count("test_upper") == 2 and "test_param_again" in names
    # the report's test changes say why the file has fewer tests than were written
    assert work.test_changes == [
        "dropped 2 designed test(s) repeating an earlier one: test_edge_upper, test_edge_empty"
    ]
