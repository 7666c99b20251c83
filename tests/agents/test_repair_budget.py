"""The repair prompt is sized to the model's context window: it leaves room for the reply
(the whole file again), trimming what matters least first, and a repair that cannot fit
is not asked for (py-word-freq: 3,883 prompt tokens left 212 of a 4,096-token window and
the cut reply did not parse)."""

from __future__ import annotations

import pytest

from codeproof.agents.repairer import (
    TESTS_LEFT_OUT,
    estimate_tokens,
    repair,
)
from codeproof.core.errors import ContextLengthError
from codeproof.core.types import Module, Spec, TestCase, TestReport
from codeproof.llm.fake import FakeModel

FIXED = "def add(a, b):\n    return a + b\n"
REPLY = f"File: adder.py\n```python\n{FIXED}```\nSummary: removed abs()."
CODE = {"adder.py": "def add(a, b):\n    return abs(a) + b\n" + "# padding line\n" * 60}
TESTS = {
    "test_adder.py": "from adder import add\n\n\ndef test_neg():\n"
    + "".join(f"    assert add(-{i}, {i}) == 0\n" for i in range(1, 80))
}
FAILING = TestReport(
    total=1,
    failed=1,
    tests=[TestCase(name="test_adder.test_neg", outcome="failed", message="assert 2 == 0")],
    output="E   assert 2 == 0\n" + "trace line\n" * 400,
)
HISTORY = ["tried removing abs in the wrong place " * 4] * 5
RETRIEVED = "## Reference (data)\n" + "some retrieved documentation\n" * 80


def _repair(model: FakeModel, spec: Spec, module: Module) -> str:
    repair(model, spec, module, CODE, TESTS, FAILING, history=HISTORY, context=RETRIEVED)
    return model.calls[0].messages[-1].content


def _whole_prompt_tokens(spec: Spec, module: Module) -> int:
    model = FakeModel([REPLY])  # no window: nothing trimmed
    prompt = _repair(model, spec, module)
    assert RETRIEVED.splitlines()[1] in prompt and "def test_neg" in prompt
    return estimate_tokens(model.calls[0].messages[0].content) + estimate_tokens(prompt)


def test_without_a_known_window_the_prompt_is_whole(spec: Spec, module: Module) -> None:
    assert _whole_prompt_tokens(spec, module) > 1000


def test_the_prompt_leaves_room_for_the_whole_file_again(spec: Spec, module: Module) -> None:
    whole = _whole_prompt_tokens(spec, module)
    reply = estimate_tokens(CODE["adder.py"]) + 200
    # room for everything but the retrieved context and the earlier attempts
    window = whole + reply - 1
    model = FakeModel([REPLY], context_window=window)
    prompt = _repair(model, spec, module)
    assert "some retrieved documentation" not in prompt
    assert "def test_neg" in prompt  # the tests and the failures stay
    assert "assert 2 == 0" in prompt and "abs(a)" in prompt
    assert spec.functional_requirements[0] in prompt
    sent = estimate_tokens(model.calls[0].messages[0].content) + estimate_tokens(prompt)
    assert sent + reply <= window
    assert model.calls[0].settings.max_tokens >= reply


def test_the_tests_go_last_and_the_failures_still_name_them(spec: Spec, module: Module) -> None:
    reply = estimate_tokens(CODE["adder.py"]) + 200
    model = FakeModel([REPLY], context_window=reply + 900)
    prompt = _repair(model, spec, module)
    assert TESTS_LEFT_OUT in prompt and "def test_neg" not in prompt
    assert "test_adder.test_neg: assert 2 == 0" in prompt
    assert prompt.count("trace line") < 400 // 4  # the output's tail is short


def test_a_repair_that_cannot_fit_is_not_asked_for(spec: Spec, module: Module) -> None:
    model = FakeModel([REPLY], context_window=600)
    with pytest.raises(ContextLengthError, match="does not fit") as caught:
        _repair(model, spec, module)
    assert caught.value.hint and "llm.ctx_size" in caught.value.hint
    assert model.calls == []


def test_a_file_longer_than_the_default_budget_gets_room_to_come_back(
    spec: Spec, module: Module
) -> None:
    big = {"adder.py": "def add(a, b):\n    return abs(a) + b\n" + "# a long comment\n" * 600}
    model = FakeModel([REPLY], context_window=16384)
    repair(model, spec, module, big, TESTS, FAILING)
    assert model.calls[0].settings.max_tokens >= estimate_tokens(big["adder.py"])
