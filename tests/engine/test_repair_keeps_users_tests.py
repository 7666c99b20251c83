"""A repair never changes the tests of the user's word (:mod:`codeproof.engine.repairing`).

The interactive ranges run of session 34: after the person answered two questions, the
retry's repair gave "the test contradicts the requirement" as its reason for rewriting
tests; a reason lets a repair change the designed tests, never the person's examples.
"""

from __future__ import annotations

from dataclasses import replace

from codeproof.core.types import TestReport
from codeproof.engine.repairing import repair
from codeproof.engine.state import Work
from codeproof.llm.fake import FakeModel
from inproc import python_context

CODE = "def inc(x):\n    return x\n"
DESIGNED = "from inc import inc\n\n\ndef test_one():\n    assert inc(1) == 2\n"
REPLY = """File: inc.py
```python
def inc(x):
    return x + 1
```
File: test_inc_examples.py
```python
from inc import inc


def test_example_1():
    assert inc(5) == 5
```
File: test_inc.py
```python
from inc import inc


def test_one():
    assert inc(1) == 2


def test_two():
    assert inc(2) == 3
```
Reason: the specification says inc adds one
Summary: add one
"""


def test_a_repair_changes_the_designed_tests_with_a_reason_never_the_users() -> None:
    ctx = python_context("inc", "inc(x)")
    ctx = replace(ctx, model_for=lambda scope: FakeModel([REPLY]))
    examples = ["inc(5) -> 6"]
    users = {"test_inc_examples.py": "from inc import inc\n\n\ndef test_example_1():\n"
             "    assert inc(5) == 6\n"}  # fmt: skip
    tests = {"test_inc.py": DESIGNED, **users}
    report = TestReport(total=2, passed=0, failed=2)
    work = Work(files={"inc.py": CODE}, tests=tests, examples=examples, report=report)

    repaired = repair(ctx, work)

    assert repaired.files == {"inc.py": "def inc(x):\n    return x + 1\n"}
    assert repaired.tests["test_inc_examples.py"] == users["test_inc_examples.py"]
    assert "def test_two" in repaired.tests["test_inc.py"]  # a designed test, with a reason
    assert repaired.test_changes == ["the specification says inc adds one"]
