"""Where no draft meets every stated example, the chosen draft takes another draft's
function that meets the examples of that function (py-durations at 68dd645)."""

from __future__ import annotations

import pytest
from wf_world import ScriptedHuman, World

from codeproof.choosing.recombining import adopt, recombined
from codeproof.choosing.selection import choose
from codeproof.core.reports import ModuleOutcome
from codeproof.core.types import Module, ProgramRun, TestReport
from codeproof.workflow.store import RunStore

CALC = Module(
    name="calc",
    purpose="Two small functions.",
    language="python",
    public_interface="double(x: int) -> int\nshout(x: int) -> str",
)
# the first draft doubles right and shouts wrong; the spec draft the other way round
FIRST = "def double(x):\n    return x * 2\n\n\ndef shout(x):\n    return str(x)\n"
SPEC = "def double(x):\n    return x + 2\n\n\ndef shout(x):\n    return f'{x}!'\n"
TESTS = (
    "from calc import double, shout\n\n\n"
    "def test_double_zero():\n    assert double(0) == 0\n\n\n"
    "def test_shout_is_text():\n    assert isinstance(shout(1), str)\n"
)
REQUEST = 'a module calc.py where double(3) -> 6 and shout(3) -> "3!"'


def _outcome(store: RunStore, run_id: str) -> ModuleOutcome:
    ends = [e for e in store.events(run_id, "node_end") if e.payload["node"] == "finish"]
    [outcome] = ends[-1].payload["output"]["outcomes"]
    return ModuleOutcome.model_validate(outcome)


def _choices(store: RunStore, run_id: str) -> list[str]:
    ends = [e for e in store.events(run_id, "node_end") if e.payload["node"] == "execute"]
    return [e.payload["output"]["work"].get("choice") or "" for e in ends]


def calc_world(first: str) -> World:
    """The first draft ``first``, the spec draft :data:`SPEC`, the designed :data:`TESTS`."""
    return World(
        modules=[CALC],
        code={"calc": first},
        spec_code={"calc": SPEC},
        tests={"calc": TESTS},
        inputs={"calc": "double(1)\nshout(1)"},
    )


def _run(run_workflow, first: str):  # type: ignore[no-untyped-def]
    model = calc_world(first).model()
    return run_workflow(
        model, ScriptedHuman(), REQUEST, auto=True, candidates=3, on_failure="continue"
    )


def test_the_chosen_draft_takes_the_function_another_draft_gets_right(run_workflow, store):
    result = _run(run_workflow, FIRST)

    outcome = _outcome(store, result.run_id)
    code = outcome.files["calc.py"]
    assert "return x * 2" in code and "return f'{x}!'" in code  # each function's right one
    assert outcome.status == "passed"
    notes = _choices(store, result.run_id)
    assert any("shipped with shout from candidate 1" in c for c in notes)
    assert not any("of 4" in c for c in notes)  # the composite is no draft: it never votes


def test_drafts_that_meet_every_example_are_not_recombined(run_workflow, store):
    right = FIRST.replace("return str(x)", "return f'{x}!'")
    result = _run(run_workflow, right)

    outcome = _outcome(store, result.run_id)
    assert outcome.status == "passed" and outcome.files["calc.py"] == right
    assert not any("shipped with" in c for c in _choices(store, result.run_id))


JS_CALC = CALC.model_copy(update={"language": "javascript"})
JS_FIRST = (
    "function double(x) { return x * 2; }\n\nfunction shout(x) { return String(x); }\n\n"
    "module.exports = { double, shout };\n"
)
JS_SPEC = (
    "const BANG = '!';\n\nconst bang = (s) => s + BANG;\n\n"
    "function double(x) { return x + 2; }\n\nfunction shout(x) { return bang(String(x)); }\n\n"
    "module.exports = { double, shout };\n"
)
JS_TESTS = {
    "calc.test.js": (
        "const { test } = require('node:test');\nconst assert = require('node:assert/strict');\n"
        "const { double } = require('./calc');\n\n"
        "test('double of zero', () => { assert.equal(double(0), 0); });\n"
    )
}


@pytest.mark.docker
def test_a_javascript_composite_meets_both_functions_examples_in_the_sandbox(
    javascript_toolchain,
):
    def run(files: dict[str, str], tests: dict[str, str]) -> TestReport:
        return javascript_toolchain.run_tests(files, tests, 60)

    def program(files: dict[str, str], args: list[str], timeout: float) -> ProgramRun:
        return javascript_toolchain.run(files, args, None, timeout)

    drafts = [{"calc.js": JS_FIRST}, {"calc.js": JS_SPEC}]
    examples = ["double(3) -> 6", 'shout(3) -> "3!"']
    choice = choose(run, drafts, JS_TESTS, JS_CALC, examples, program)
    assert choice.index == 0 and choice.examples_missed == 1

    made = recombined(JS_CALC, drafts, choice.reports, choice.tests, choice.index)
    adopted = adopt(run, program, JS_CALC, choice, made)

    assert adopted is not None and adopted.report.green and adopted.examples_missed == 0
    code = adopted.files["calc.js"]
    assert "return x * 2" in code and "bang(String(x))" in code and "const BANG" in code
