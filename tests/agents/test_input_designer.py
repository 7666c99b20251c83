"""The input designer with a scripted model: what it is shown and which lines it keeps."""

from __future__ import annotations

from codeproof.agents.input_designer import propose_inputs
from codeproof.choosing.probing import probe_calls
from codeproof.core.types import Module, Spec
from codeproof.llm.fake import FakeModel

REPLY = """Here are inputs:
```python
# boundaries
add(0, 0)
add(-1, 1)

add(-1, 1)
print(add(10**9, 1))
x = 3
// not python
add(2.5, 1)
"""
REPLY += "add(" + "9" * 200 + ", 1)\n```\nThese cover the edge cases."  # a runaway literal


def test_lines_of_the_reply_are_kept_once_without_comments_or_prose(
    spec: Spec, module: Module
) -> None:
    model = FakeModel([REPLY])
    lines = propose_inputs(model, spec, module, n=8)
    assert lines == ["add(0, 0)", "add(-1, 1)", "print(add(10**9, 1))", "x = 3", "add(2.5, 1)"]
    # the prober keeps the calls of the interface with literal arguments
    probes = probe_calls(module, {str(i): line for i, line in enumerate(lines)})
    assert probes == ["add(0, 0)", "add(-1, 1)", "add(2.5, 1)"]
    prompt = model.calls[0].messages[-1].content
    for expected in ("add(1, 2) -> 3", "add(a: int, b: int) -> int", "8 NEW calls", "`add(...)`"):
        assert expected in prompt
    assert model.calls[0].settings.temperature == 0.0
    # sized to the calls asked for: a reply past them is a runaway, not more inputs
    assert model.calls[0].settings.max_tokens == 28 * 8 + 16


def test_at_most_twice_n_lines_and_no_call_for_zero(spec: Spec, module: Module) -> None:
    many = "```python\n" + "\n".join(f"add({i}, {i})" for i in range(20)) + "\n```"
    assert len(propose_inputs(FakeModel([many]), spec, module, n=3)) == 6
    silent = FakeModel([])
    assert propose_inputs(silent, spec, module, n=0) == []
    assert silent.calls == []


def test_java_names_come_from_the_method_signature() -> None:
    spec = Spec(title="Valid", summary="Check a date.", language="java")
    module = Module(
        name="Solution",
        purpose="Dates.",
        language="java",
        public_interface="public boolean validDate(String date)",
    )
    model = FakeModel(['```java\nnew Solution().validDate("04-31-2020");\nvalidDate("");\n```'])
    lines = propose_inputs(model, spec, module, n=4)
    assert probe_calls(module, {"reply": "\n".join(lines)}) == [
        'validDate("04-31-2020")',
        'validDate("")',
    ]
    assert "like `validDate(...)`" in model.calls[0].messages[-1].content
