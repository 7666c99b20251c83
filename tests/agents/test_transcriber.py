"""The transcriber writes the user's worked examples as one test file at the worked
path, whatever path its reply names (a JUnit class is named after that path)."""

from __future__ import annotations

import pytest

from codeproof.agents.transcriber import budget, transcribe
from codeproof.core.types import Module
from codeproof.languages.registry import layout_for
from codeproof.llm.fake import FakeModel
from codeproof.llm.local import LocalChatModel

PASSAGE = "Example: after push(3) and push(5), pop() returns 5 and size() is 1."
JAVA_REPLY = """File: StackTest.java
```java
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

class StackTest {
    @Test
    void workedExample() {
        Stack s = new Stack();
        s.push(3);
        s.push(5);
        assertEquals(5, s.pop());
        assertEquals(1, s.size());
    }
}
```
"""


def test_the_reply_lands_at_the_worked_path_with_its_class_named_after_it() -> None:
    module = Module(name="Stack", purpose="a stack", language="java",
                    public_interface="push(int), int pop(), int size()")  # fmt: skip
    model = FakeModel([JAVA_REPLY])
    path = "StackWorkedExamplesTest.java"
    files = transcribe(model, module, "JUnit 5 tests", [PASSAGE], path)
    assert list(files) == [path]
    assert "class StackWorkedExamplesTest" in files[path] and "class StackTest" not in files[path]
    call = model.calls[0]
    assert PASSAGE in call.messages[-1].content and "Example 1:" in call.messages[-1].content
    assert call.settings.max_tokens == budget(1) and call.settings.temperature == 0.0


def test_no_examples_no_call() -> None:
    model = FakeModel([])
    module = Module(name="m", purpose="", language="python", public_interface="f()")
    assert transcribe(model, module, "", [], "test_m_worked_examples.py") == {}
    assert model.calls == []


@pytest.mark.real_model
@pytest.mark.slow
def test_the_small_model_transcribes_a_worked_example(
    small_local_model: LocalChatModel, allow_model: None
) -> None:
    interface = "class Stack: push(x), pop() -> int, size() -> int"
    module = Module(name="stack", purpose="integers", language="python", public_interface=interface)
    conventions = "Tests `test_<module>.py` with pytest plain asserts, `from stack import Stack`."
    path = layout_for("python").worked_test_path
    assert path is not None
    files = transcribe(small_local_model, module, conventions, [PASSAGE], path("stack"))
    [(name, source)] = files.items()
    assert name == "test_stack_worked_examples.py"
    assert "def test" in source and "push(3)" in source and "push(5)" in source
