"""Programmer, test designer and repairer with a scripted model."""

from __future__ import annotations

import ast

import pytest
from pydantic import ValidationError

from codeproof.agents.programmer import APPROACHES, TEMPERATURES, write_code
from codeproof.agents.repairer import NOT_COMPILED, repair, source_errors_only
from codeproof.agents.test_designer import design_tests
from codeproof.core.errors import ContextLengthError
from codeproof.core.types import (
    Diagnostic,
    Module,
    ModulePlan,
    RepairResult,
    SourceFile,
    Spec,
    TestCase,
    TestReport,
)
from codeproof.llm.base import ChatSettings, Message
from codeproof.llm.fake import FakeModel
from codeproof.llm.hooks import Completion, JsonSchema

# The conventions texts of the brief (the toolchains serve the real ones at run time).
CONVENTIONS = {
    "python": "Module `<module>.py` at the root; tests `test_<module>.py` with pytest plain "
    "asserts importing `from <module> import ...`.",
    "javascript": "`<module>.js` CommonJS `module.exports`; tests `<module>.test.js` with "
    "`node:test` + `node:assert/strict`, `require('./<module>')`.",
    "java": "`<ClassName>.java` default package; tests `<ClassName>Test.java` JUnit 5.",
}


CODE = "def add(a, b):\n    return a + b\n"


def test_write_code_single_block_is_the_module(
    spec: Spec, module: Module, plan: ModulePlan
) -> None:
    model = FakeModel([f"Sure!\n```python\n{CODE}```\nThis adds numbers."])
    [draft] = write_code(model, spec, module, plan, CONVENTIONS["python"])
    assert draft.files == [SourceFile(path="adder.py", content=CODE)]
    assert "This adds numbers." in draft.notes
    prompt = model.calls[0].messages[-1].content
    for expected in ("add(1, 2) -> 3", "Return a + b.", CONVENTIONS["python"], "File: adder.py"):
        assert expected in prompt


def test_write_code_drops_tests_and_flattens_paths(
    spec: Spec, module: Module, plan: ModulePlan
) -> None:
    reply = (
        f"File: src/adder.py\n```python\n{CODE}```\n"
        "File: test_adder.py\n```python\ndef test_add():\n    assert add(1, 2) == 3\n```\n"
        "Usage:\n```python\nprint(add(1, 2))\n```"
    )
    [draft] = write_code(FakeModel([reply]), spec, module, plan, CONVENTIONS["python"])
    assert [f.path for f in draft.files] == ["adder.py"]


def test_write_code_drops_module_level_usage(spec: Spec, module: Module, plan: ModulePlan) -> None:
    reply = f"```python\nimport pytest\n{CODE}\nwith pytest.raises(TypeError):\n    add(1)\n```"
    [draft] = write_code(FakeModel([reply]), spec, module, plan, CONVENTIONS["python"])
    assert draft.files == [SourceFile(path="adder.py", content=CODE)]


def test_mislabelled_blocks_are_recovered(spec: Spec, module: Module, plan: ModulePlan) -> None:
    reply = f"Save it as adder.py and test it with test_adder.py:\n```python\n{CODE}```"
    [draft] = write_code(FakeModel([reply]), spec, module, plan, "")
    assert draft.files == [SourceFile(path="adder.py", content=CODE)]
    tests = "File: adder.py\n```python\ndef test_add():\n    assert add(1, 2) == 3\n```"
    [test_file] = design_tests(FakeModel([tests]), spec, module, "").files
    assert test_file.path == "test_adder.py" and "def test_add" in test_file.content


def test_write_code_candidates_differ_in_reading_and_temperature(
    spec: Spec, module: Module, plan: ModulePlan
) -> None:
    model = FakeModel(rules=[(lambda m: True, f"```python\n{CODE}```")], slots=2)
    drafts = write_code(model, spec, module, plan, CONVENTIONS["python"], n=4, seed=10)
    assert len(drafts) == 4 and all(d.files for d in drafts)
    calls = sorted(model.calls, key=lambda c: c.settings.seed or 0)
    assert [c.settings.seed for c in calls] == [10, 11, 12, 13]
    assert [c.settings.temperature for c in calls] == list(TEMPERATURES[:4])
    prompts = [c.messages[-1].content for c in calls]
    assert "Approach:" not in prompts[0]
    for hint, prompt in zip(APPROACHES[1:4], prompts[1:], strict=True):
        assert hint is not None and hint in prompt
    assert drafts[2].notes.startswith("candidate 2: temperature=0.7")


def test_write_code_context_and_dependencies_reach_the_prompt(
    spec: Spec, module: Module, plan: ModulePlan
) -> None:
    model = FakeModel([f"```python\n{CODE}```"])
    write_code(
        model,
        spec,
        module,
        plan,
        CONVENTIONS["python"],
        context=lambda s, m: f"retrieved for {m.name}",
        dependency_files={"util.py": "def helper():\n    return 1\n"},
        approaches=["Think in sets."],
    )
    prompt = model.calls[0].messages[-1].content
    assert "retrieved for adder" in prompt
    assert "File: util.py\n```python\ndef helper():" in prompt
    assert "Approach:\nThink in sets." in prompt


def test_write_code_reply_without_code_gives_an_empty_draft(
    spec: Spec, module: Module, plan: ModulePlan
) -> None:
    [draft] = write_code(FakeModel(["```bash\nls\n```"]), spec, module, plan, "")
    assert draft.files == []
    with pytest.raises(ValueError):
        write_code(FakeModel([]), spec, module, plan, "", n=0)


def test_write_code_java_class_matches_the_file(spec: Spec, plan: ModulePlan) -> None:
    module = Module(name="adder", purpose="adds", language="java", public_interface="add")
    reply = (
        "```java\n"
        "public class Solution {\n"
        "  public static int add(int a, int b) { return a + b; }\n"
        "}\n"
        "```"
    )
    [draft] = write_code(FakeModel([reply]), spec, module, plan, CONVENTIONS["java"])
    assert draft.files[0].path == "Adder.java"
    assert "public class Adder {" in draft.files[0].content


TESTS_REPLY = """Here are the tests.

File: test_adder.py
```python
from solution import add

def test_examples():
    assert add(1, 2) == 3

def test_examples():
    assert add(-1, 1) == 0

def test_broken(:
    pass
```

File: adder.py
```python
def add(a, b):
    return a + b
```
"""


def test_design_tests_tidies_the_file_and_drops_the_implementation(
    spec: Spec, module: Module
) -> None:
    model = FakeModel([TESTS_REPLY])
    draft = design_tests(model, spec, module, CONVENTIONS["python"])
    [tests] = draft.files
    assert tests.path == "test_adder.py"
    tree = ast.parse(tests.content)
    names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert names == ["test_examples", "test_examples_2"]
    assert "from adder import add" in tests.content
    assert draft.notes.startswith("2 test(s)")
    prompt = model.calls[0].messages[-1].content
    assert "add(-1, 1) -> 0" in prompt and "ONE behaviour" in prompt
    assert "return a + b" not in prompt  # the designer never sees code


def test_design_tests_unlabelled_block_and_dependencies(spec: Spec, module: Module) -> None:
    dep = Module(name="util", purpose="helps", language="python", public_interface="helper()")
    model = FakeModel(
        ["```python\nfrom adder import add\n\ndef test_a():\n    assert add(1, 2) == 3\n```"]
    )
    draft = design_tests(model, spec, module, CONVENTIONS["python"], dependencies=[dep])
    assert [f.path for f in draft.files] == ["test_adder.py"]
    assert "`util`: helper()" in model.calls[0].messages[-1].content


def test_design_tests_filed_under_a_dependencys_name_are_this_modules(
    spec: Spec, module: Module
) -> None:
    """Session 40's own request: reading's tests came as test_temperature.py, the file of
    its dependency's tests, and the project kept temperature's file in its place."""
    dep = Module(name="temperature", purpose="p", language="python", public_interface="f(c)")
    reply = (
        "File: test_temperature.py\n```python\nfrom adder import add\n\n"
        "def test_a():\n    assert add(1, 2) == 3\n```"
    )
    draft = design_tests(FakeModel([reply]), spec, module, "", dependencies=[dep])
    assert [f.path for f in draft.files] == ["test_adder.py"]
    assert "def test_a" in draft.files[0].content


def test_design_tests_without_test_code_gives_no_files(spec: Spec, module: Module) -> None:
    model = FakeModel([f"```python\n{CODE}```", f"```python\n{CODE}```"])
    draft = design_tests(model, spec, module, "")
    assert draft.files == []
    assert len(model.calls) == 2  # asked once more before giving up


def test_design_tests_asks_again_when_no_test_would_run(spec: Spec, module: Module) -> None:
    model = FakeModel(
        [
            "```python\nfrom adder import add\n\ndef check_add():\n    assert add(1, 2) == 3\n```",
            "```python\nfrom adder import add\n\ndef test_add():\n    assert add(1, 2) == 3\n```",
        ]
    )
    draft = design_tests(model, spec, module, "")
    assert [f.path for f in draft.files] == ["test_adder.py"]
    assert "def test_add" in draft.files[0].content
    first, second = (call.settings for call in model.calls)
    assert first is not None and second is not None
    assert first.temperature == 0.0 and second.temperature > 0.0


def test_design_tests_javascript(spec: Spec) -> None:
    module = Module(name="adder", purpose="adds", language="javascript", public_interface="add")
    reply = (
        "```js\n"
        "const { add } = require('./solution');\n"
        "test('adds', () => {\n"
        "  assert.strictEqual(add(1, 2), 3);\n"
        "});\n"
        "```"
    )
    [tests] = design_tests(FakeModel([reply]), spec, module, CONVENTIONS["javascript"]).files
    assert tests.path == "adder.test.js"
    assert "require('./adder')" in tests.content and "node:assert/strict" in tests.content


FAILING = TestReport(
    total=2,
    passed=1,
    failed=1,
    tests=[
        TestCase(name="test_adder.test_ok", outcome="passed"),
        TestCase(name="test_adder.test_neg", outcome="failed", message="assert 2 == 0"),
    ],
    output="E   assert 2 == 0",
)
TESTS = {
    "test_adder.py": "from adder import add\n\n\ndef test_ok():\n    assert add(1, 1) == 2\n\n\n"
    "def test_neg():\n    assert add(-1, 1) == 0\n"
}
FILES = {"adder.py": "def add(a, b):\n    return abs(a) + b\n"}


def test_repair_returns_the_fixed_file_and_focuses_the_prompt(spec: Spec, module: Module) -> None:
    model = FakeModel([f"File: adder.py\n```python\n{CODE}```\nSummary: removed abs()."])
    result = repair(
        model, spec, module, FILES, TESTS, FAILING, hint="negatives!", history=["tried abs"]
    )
    assert result.files == [SourceFile(path="adder.py", content=CODE)]
    assert result.test_files == [] and result.test_change_reason is None
    assert result.change_summary == "removed abs()."
    prompt = model.calls[0].messages[-1].content
    assert "test_adder.test_neg: assert 2 == 0" in prompt
    assert "def test_neg" in prompt and "def test_ok" not in prompt
    assert "negatives!" in prompt and "- tried abs" in prompt


def test_the_tests_are_left_out_when_only_the_code_does_not_compile(
    spec: Spec, module: Module
) -> None:
    errors = [Diagnostic(file="adder.py", line=2, message="invalid syntax")]
    broken = TestReport(errors=1, message="no test ran", diagnostics=errors)
    model = FakeModel([f"File: adder.py\n```python\n{CODE}```\n"] * 2)
    repair(model, spec, module, FILES, TESTS, broken)
    assert NOT_COMPILED in model.calls[0].messages[-1].content
    assert "def test_neg" not in model.calls[0].messages[-1].content
    # an error in a test file, or one the compiler does not place: the tests are shown
    for file in ("test_adder.py", ""):
        report = broken.model_copy(
            update={"diagnostics": [errors[0].model_copy(update={"file": file})]}
        )
        assert not source_errors_only(report, TESTS)
    assert not source_errors_only(TestReport(errors=1), TESTS)  # no diagnostics: unknown


@pytest.mark.parametrize("label", ["File: adder.py", "**adder.py**", "`adder.py`:", ""])
def test_a_repair_without_words_is_summarised_by_its_diff(
    spec: Spec, module: Module, label: str
) -> None:
    model = FakeModel([f"{label}\n```python\n{CODE}```\n"])
    result = repair(model, spec, module, FILES, TESTS, FAILING)
    assert result.change_summary == "rewrote adder.py (+1/-1 lines)"
    same = repair(
        FakeModel([f"```python\n{FILES['adder.py']}```"]), spec, module, FILES, TESTS, FAILING
    )
    assert same.change_summary == "rewrote adder.py (unchanged)"


def test_repair_keeps_a_test_change_with_a_reason(spec: Spec, module: Module) -> None:
    reply = (
        f"```python\n{CODE}```\n"
        "File: test_adder.py\n```python\ndef test_neg():\n    assert True\n```\n"
        "Reason: the spec says add(-1, 1) -> 0 but the test expected 2.\nSummary: fixed both."
    )
    result = repair(FakeModel([reply]), spec, module, FILES, TESTS, FAILING)
    assert [f.path for f in result.files] == ["adder.py"]
    assert [f.path for f in result.test_files] == ["test_adder.py"]
    assert result.test_change_reason is not None and "add(-1, 1) -> 0" in result.test_change_reason


def test_repair_drops_a_test_change_without_a_reason(spec: Spec, module: Module) -> None:
    reply = (
        f"```python\n{CODE}```\n"
        "File: test_adder.py\n```python\ndef test_neg():\n    assert True\n```"
    )
    result = repair(FakeModel([reply]), spec, module, FILES, TESTS, FAILING)
    assert result.test_files == []
    assert "test changes dropped" in result.change_summary


def test_repair_result_requires_a_reason_with_test_files() -> None:
    with pytest.raises(ValidationError, match="test_change_reason"):
        RepairResult(files=[], test_files=[SourceFile(path="t.py", content="")], change_summary="x")


def test_repair_collection_error_shows_the_whole_test_file(spec: Spec, module: Module) -> None:
    report = TestReport(
        total=0, errors=1, output="SyntaxError: invalid syntax", message="collection failed"
    )
    model = FakeModel(["no code, sorry"])
    result = repair(model, spec, module, {"adder.py": "def add(a, b)\n"}, TESTS, report)
    prompt = model.calls[0].messages[-1].content
    assert "def test_ok" in prompt and "SyntaxError: invalid syntax" in prompt
    assert "collection failed" in prompt
    assert result.files == []
    assert result.change_summary == "no code, sorry"


def test_repair_messages_are_a_system_and_user_pair(spec: Spec, module: Module) -> None:
    model = FakeModel([f"```python\n{CODE}```"])
    repair(model, spec, module, FILES, TESTS, FAILING)
    roles = [m.role for m in model.calls[0].messages]
    assert roles == ["system", "user"]
    assert isinstance(model.calls[0].messages[0], Message)


@pytest.mark.parametrize(("invariants", "asked"), [([], False), (["R2"], True)])
def test_property_tests_are_asked_only_for_rules_over_every_input(
    spec: Spec, module: Module, invariants: list[str], asked: bool
) -> None:
    test = "def test_add():  # R1\n    assert add(1, 2) == 3\n"
    reply = f"```python\nfrom adder import add\n\n\n{test}```"
    model = FakeModel([reply])
    rules = "R1: add returns the sum.\nR2: add never raises for two ints."
    design_tests(model, spec, module, CONVENTIONS["python"], rules=rules, invariants=invariants)
    prompt = model.calls[0].messages[-1].content
    assert "names the user's rule it checks" in prompt
    assert ("R2 hold for every input" in prompt) is asked
    assert ("hypothesis" in prompt) is asked


class _CutModel(FakeModel):
    """A scripted model whose replies stop at the token limit."""

    def _complete(
        self, messages: list[Message], settings: ChatSettings, schema: JsonSchema | None
    ) -> Completion:
        done = super()._complete(messages, settings, schema)
        return Completion(done.text, done.usage, "length")


def test_a_repair_cut_at_the_token_limit_changes_nothing(spec: Spec, module: Module) -> None:
    # py-word-freq: 3,883 prompt tokens left 212 of the window; the cut file did not
    # parse, and shipped
    cut = "File: adder.py\n```python\ndef add(a, b):\n    return a +"
    with pytest.raises(ContextLengthError, match="cut at the token limit"):
        repair(_CutModel([cut]), spec, module, FILES, TESTS, FAILING)
