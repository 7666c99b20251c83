"""One check per key agent function with the real 0.5B model (structure, not exact text).

``clarify`` is covered with the scripted model only: it is a constrained-JSON call like
``analyze`` and adds minutes on a loaded machine.
"""

from __future__ import annotations

import ast
import re

import pytest

from codeproof.agents.analyst import analyze
from codeproof.agents.documenter import document
from codeproof.agents.input_designer import propose_inputs
from codeproof.agents.judge import pick
from codeproof.agents.planner import extract_modules, plan_module
from codeproof.agents.programmer import write_code, write_direct
from codeproof.agents.repairer import repair
from codeproof.agents.test_designer import design_tests
from codeproof.choosing.probing import probe_calls
from codeproof.core.reports import ModuleOutcome
from codeproof.core.types import Module, ModulePlan, Spec, TestCase, TestReport
from codeproof.llm.base import ChatModel
from codeproof.toolchains.registry import get_toolchain

pytestmark = [pytest.mark.real_model, pytest.mark.slow, pytest.mark.usefixtures("allow_model")]

REQUEST = "a Python function add(a, b) that returns the sum"
CONVENTIONS = get_toolchain("python").conventions
TEST_FILE = "from adder import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
MAX_TOKENS = 400  # bounds the time of a rambling small model


def _defines_add(content: str) -> bool:
    try:
        tree = ast.parse(content)
    except SyntaxError:
        return False
    return any(isinstance(n, ast.FunctionDef) and n.name == "add" for n in ast.walk(tree))


def test_analyze(small_local_model: ChatModel) -> None:
    spec = analyze(small_local_model, REQUEST, [], language="python", assumptions=["ints"])
    assert spec.language == "python" and spec.title
    assert "ints" in spec.assumptions


def test_extract_modules_and_plan(small_local_model: ChatModel, spec: Spec) -> None:
    two = ["add(a: int, b: int) -> int", "sub(a: int, b: int) -> int"]
    # two interfaces: the model is asked (one interface is one module without a call)
    modules = extract_modules(small_local_model, spec.model_copy(update={"interfaces": two}))
    assert modules
    for position, module in enumerate(modules):
        assert re.fullmatch(r"[a-z_][a-z0-9_]*", module.name)
        assert module.language == "python"
        assert all(d in {m.name for m in modules[:position]} for d in module.depends_on)
    plan = plan_module(small_local_model, spec, modules[0])
    assert 1 <= len(plan.steps) <= 8


def test_design_tests(small_local_model: ChatModel, spec: Spec, module: Module) -> None:
    draft = design_tests(small_local_model, spec, module, CONVENTIONS, max_tokens=MAX_TOKENS)
    assert draft.files
    for file in draft.files:
        assert file.path.startswith("test_") and file.path.endswith(".py")
        ast.parse(file.content)  # tidied: always compiles
        assert "from adder import" in file.content or "import adder" in file.content


def test_propose_inputs(small_local_model: ChatModel, spec: Spec, module: Module) -> None:
    lines = propose_inputs(small_local_model, spec, module, n=4, max_tokens=200)
    probes = probe_calls(module, {str(i): line for i, line in enumerate(lines)})
    assert probes and all(p.startswith("add(") for p in probes)


def test_write_code_two_candidates(
    small_local_model: ChatModel, spec: Spec, module: Module, plan: ModulePlan
) -> None:
    drafts = write_code(
        small_local_model, spec, module, plan, CONVENTIONS, n=2, max_tokens=MAX_TOKENS
    )
    assert len(drafts) == 2
    assert drafts[0].notes.startswith("candidate 0") and drafts[1].notes.startswith("candidate 1")
    contents = [f.content for d in drafts for f in d.files if f.path == "adder.py"]
    assert any(_defines_add(c) for c in contents)


def test_write_direct_with_the_users_answers(small_local_model: ChatModel, module: Module) -> None:
    """The draft written with the person's answers beside the request (greedy, as the
    first draft after an answer no draft met) is a module defining the function."""
    files = write_direct(
        small_local_model,
        REQUEST,
        module,
        CONVENTIONS,
        index=7,
        greedy=True,
        answers=["add(2, -2) -> 0"],
        max_tokens=MAX_TOKENS,
    )
    assert list(files) == ["adder.py"] and _defines_add(files["adder.py"])


def test_repair(small_local_model: ChatModel, spec: Spec, module: Module) -> None:
    files = {"adder.py": "def add(a, b):\n    return a - b\n"}
    tests = {
        "test_adder.py": "from adder import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
    }
    report = TestReport(
        total=1,
        failed=1,
        tests=[TestCase(name="test_adder.test_add", outcome="failed", message="assert -1 == 3")],
    )
    result = repair(small_local_model, spec, module, files, tests, report, max_tokens=MAX_TOKENS)
    assert result.change_summary
    assert [f.path for f in result.files] == ["adder.py"]
    assert _defines_add(result.files[0].content)


def test_document(small_local_model: ChatModel, spec: Spec, module: Module) -> None:
    outcome = ModuleOutcome(
        module=module,
        files={"adder.py": "def add(a, b):\n    return a + b\n"},
        tests={"test_adder.py": TEST_FILE},
        status="passed",
        report=TestReport(total=1, passed=1, tests=[TestCase(name="test_add", outcome="passed")]),
    )
    docs = document(small_local_model, spec, [outcome])
    assert docs.readme.startswith("# Adder") and "assert add(1, 2) == 3" in docs.readme
    assert "### `add(a, b)`" in docs.api


def test_judge_names_one_of_the_offered_answers(small_local_model: ChatModel) -> None:
    """The judge's reply, in both orders, is a letter of an offered answer."""
    answers = ["5", "-1"]
    for offered in (answers, answers[::-1]):
        index = pick(small_local_model, REQUEST, "add(2, 3)", offered, language="python")
        assert index in (0, 1)
