"""What a repair prompt leads with: the user's stated examples the code misses, before
the designed tests' failures, and no output tail that repeats the failures above it;
earlier attempts are earlier repairs, never the choice notes of the drafts (py-roman:
four choice notes of ~400 characters and a 2,500-character tail of repeated tracebacks
made a 4,009-token prompt whose reply was cut after 62 tokens, so no repair ran)."""

from __future__ import annotations

from codeproof.agents.repairer import (
    MAX_FAILURES,
    OUTPUT_TAIL,
    SHORT_TAIL,
    USER_EXAMPLE,
    describe_report,
    failing_tests,
    output_tail,
    repair,
)
from codeproof.core.types import Module, Spec, TestCase, TestReport
from codeproof.engine.context import Context, EngineOptions
from codeproof.engine.executing import execute
from codeproof.engine.repairing import repair as engine_repair
from codeproof.engine.state import AttemptRecord, Draft, Work
from codeproof.languages import registry
from codeproof.llm.base import ChatModel
from codeproof.llm.fake import FakeModel
from inproc import memory_python_toolchain

CODE = {"adder.py": "def add(a, b):\n    return abs(a) + b\n"}
TESTS = {
    "test_adder.py": "from adder import add\n\n\ndef test_neg():\n    assert add(-1, 1) == 0\n"
}
REPLY = "File: adder.py\n```python\ndef add(a, b):\n    return a + b\n```\nSummary: no abs."
TRACE = "trace line\n" * 400


def _failure(name: str, message: str = "E   assert 2 == 0") -> TestCase:
    return TestCase(name=name, outcome="failed", message=message)


def _designed_then_stated() -> TestReport:
    designed = [_failure(f"test_adder.test_d{i}") for i in range(MAX_FAILURES + 2)]
    stated = [_failure("test_adder_examples.test_example_1", "E   KeyError: 'x'")]
    return TestReport(total=8, failed=8, tests=[*designed, *stated], output=TRACE)


def test_the_users_examples_come_first_and_say_whose_they_are() -> None:
    report = _designed_then_stated()
    text = describe_report(report, stated={"test_adder_examples.test_example_1"})
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert lines[0] == f"- test_adder_examples.test_example_1{USER_EXAMPLE}: E   KeyError: 'x'"
    assert len(lines) == MAX_FAILURES
    assert sum(USER_EXAMPLE in line for line in lines) == 1


def test_without_stated_examples_the_report_order_stays() -> None:
    text = describe_report(_designed_then_stated())
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert lines[0].startswith("- test_adder.test_d0:")
    assert "test_example_1" not in text.split("Output (end)")[0]  # cut at MAX_FAILURES
    assert USER_EXAMPLE not in text


def test_the_tail_is_short_only_when_every_failure_has_its_message() -> None:
    assert output_tail(_designed_then_stated()) == SHORT_TAIL
    silent = TestReport(total=1, failed=1, tests=[_failure("t.test_a", "")], output=TRACE)
    assert output_tail(silent) == OUTPUT_TAIL
    hang = TestReport(total=1, failed=1, tests=[_failure("t.test_a")], timed_out=True)
    assert output_tail(hang) == OUTPUT_TAIL
    assert output_tail(TestReport(total=0, message="collection error", output=TRACE)) == OUTPUT_TAIL


def test_a_repair_prompt_does_not_repeat_the_tracebacks(spec: Spec, module: Module) -> None:
    model = FakeModel([REPLY])
    repair(model, spec, module, CODE, TESTS, _designed_then_stated())
    prompt = model.calls[0].messages[-1].content
    assert 0 < prompt.count("trace line") <= SHORT_TAIL // len("trace line\n") + 1


def _ctx(model: FakeModel, spec: Spec, module: Module) -> Context:
    def direct(m: ChatModel, index: int, greedy: bool) -> dict[str, str]:
        return dict(CODE)

    return Context(
        spec=spec,
        module=module,
        words="add(a, b) returns the sum",
        toolchain=memory_python_toolchain(),
        model_for=lambda scope: model,
        direct=direct,
        options=EngineOptions(),
    )


def test_earlier_attempts_are_the_repairs_not_the_choices(spec: Spec, module: Module) -> None:
    choice = "chose candidate 0 of 7 (tests passed per candidate: [4, 4, 0, 4, 4, 3, 3])"
    history = [
        AttemptRecord(attempt=1, change=choice, passed=0, total=8, code_hash="a"),
        AttemptRecord(
            attempt=2, change="made add skip abs", passed=0, total=8, code_hash="b", repaired=True
        ),
    ]
    work = Work(files=CODE, tests=TESTS, report=_designed_then_stated(), history=history)
    model = FakeModel([REPLY])
    repaired = engine_repair(_ctx(model, spec, module), work)

    prompt = model.calls[0].messages[-1].content
    assert "made add skip abs" in prompt.split("Earlier attempts")[1]
    assert "chose candidate" not in prompt
    assert f"test_example_1{USER_EXAMPLE}" in prompt  # the engine names the stated tests
    assert repaired.files == {"adder.py": "def add(a, b):\n    return a + b\n"}
    assert repaired.repaired


def test_the_run_after_a_repair_is_recorded_as_one(spec: Spec, module: Module) -> None:
    work = Work(files=CODE, tests=TESTS, report=_designed_then_stated())
    ctx = _ctx(FakeModel([REPLY]), spec, module)
    after = execute(ctx, engine_repair(ctx, work))
    assert after.report is not None and after.report.green
    assert [h.repaired for h in after.history] == [True]
    chosen = execute(
        ctx, Work(designed=TESTS, drafts=[Draft(files=CODE, source="direct", index=0)])
    )
    assert [h.repaired for h in chosen.history] == [False]  # a choice among drafts


def test_a_declared_name_the_code_lacks_is_named_in_the_repair(spec: Spec, module: Module) -> None:
    # py-bill-split: three drafts of split.py had split_bill but not split_evenly; the
    # repair of one, shown only "cannot import name", returned it unchanged
    declared = module.model_copy(update={"public_interface": "add(a, b)\nsub(a, b)"})
    work = Work(files=CODE, tests=TESTS, report=_designed_then_stated())
    model = FakeModel([REPLY])
    engine_repair(_ctx(model, spec, declared), work)
    prompt = model.calls[0].messages[-1].content
    assert "declares `sub`, which the code does not define" in prompt
    model = FakeModel([REPLY])
    engine_repair(_ctx(model, spec, module), work)  # the code defines all: nothing said
    assert "Missing from the code" not in model.calls[0].messages[-1].content


def test_the_modules_it_uses_are_shown_and_never_changed(spec: Spec, module: Module) -> None:
    # py-inventory-report: to_csv called inventory.items() where the store's Inventory
    # keeps a dict named items; a repair that saw only report.py could not tell
    store = {"store.py": "class Inventory:\n    def __init__(self):\n        self.items = {}\n"}
    rewrite = (
        "File: store.py\n```python\nclass Inventory:\n    pass\n```\n"
        "File: adder.py\n```python\ndef add(a, b):\n    return a + b\n```\nSummary: both."
    )
    model = FakeModel([rewrite])
    result = repair(
        model, spec, module, CODE, TESTS, _designed_then_stated(), dependency_files=store
    )
    prompt = model.calls[0].messages[-1].content
    assert "Modules it uses" in prompt and "self.items = {}" in prompt
    assert prompt.index("Modules it uses") > prompt.index("Current code")
    assert [f.path for f in result.files] == ["adder.py"]


def test_a_test_file_where_nothing_failed_is_not_shown() -> None:
    tests = {
        **TESTS,
        "test_adder_examples.py": "from adder import add\n\n\ndef test_example_1():\n"
        "    assert add(-2, 2) == 0\n",
    }
    python = registry.language_for("python")
    stated = TestReport(total=2, failed=1, tests=[_failure("test_adder_examples.test_example_1")])
    assert list(failing_tests(tests, stated, python)) == ["test_adder_examples.py"]
    both = stated.model_copy(update={"tests": [*stated.tests, _failure("test_adder.test_neg")]})
    assert list(failing_tests(tests, both, python)) == list(tests)
    # a failure that names no file, or none at all: every file, as before
    unnamed = TestReport(total=1, failed=1, tests=[_failure("test_neg")])
    assert list(failing_tests(tests, unnamed, python)) == list(tests)
    assert list(failing_tests(tests, TestReport(timed_out=True), python)) == list(tests)
