"""Probes: calls found in tests, outputs compared across candidates (MBR-exec)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from codeproof.agents.example_tests import interface_names
from codeproof.agents.schemas import Module
from codeproof.config import load_settings
from codeproof.sandbox.docker_backend import DockerSandbox
from codeproof.toolchains.client import ToolchainClient, open_toolchain
from codeproof.toolchains.models import TestCase, TestReport
from codeproof.workflow.probing import (
    agreement,
    javascript_calls,
    probe,
    probe_calls,
    python_calls,
)
from codeproof.workflow.selection import choose, judge

PY_TESTS = """
import pytest
from m import f, g

def test_a():
    assert f(1, [2, 3]) == 5
    assert m.f(x=1, ys=[]) == 1
    assert f(1, [2, 3]) == 6  # the same call again: one probe

def test_b():
    with pytest.raises(ValueError):
        g("x")
    assert f(some_var, [1]) == 2  # not a literal: no probe
    assert h(1) == 1  # not in the interface
"""

JS_TESTS = """
const { f } = require('./m');
test('a', () => {
  assert.strictEqual(f("a)b", [1, {k: 2}]), 3);
  assert.strictEqual(f(x, 1), 2);
  assert.deepStrictEqual(f(null, true), undefined);
  assert.ok(obj.f(1));
});
"""


def test_interface_names() -> None:
    module = Module(
        name="m", purpose="p", language="python", public_interface="def f(x) -> int\ng(y)"
    )
    assert interface_names(module) == {"f", "g"}


def test_python_calls_take_literal_calls_of_the_interface_once() -> None:
    assert python_calls({"test_m.py": PY_TESTS, "bad.py": "def ("}, ["f", "g"]) == [
        "f(1, [2, 3])",
        "f(x=1, ys=[])",
        "g('x')",
    ]


def test_javascript_calls_take_literal_calls_of_the_interface() -> None:
    assert javascript_calls({"m.test.js": JS_TESTS}, ["f"]) == [
        'f("a)b", [1, {k: 2}])',
        "f(null, true)",
    ]


def test_agreement_counts_equal_outputs_with_every_other_candidate() -> None:
    assert agreement([["1", "2"], ["1", "3"], ["1", "2"], None]) == [3, 2, 3, 0]
    assert agreement([]) == []


def _report(passed: list[str], failed: list[str]) -> TestReport:
    cases = [TestCase(name=n, outcome="passed") for n in passed]
    cases += [TestCase(name=n, outcome="failed", message="boom") for n in failed]
    return TestReport(total=len(cases), passed=len(passed), failed=len(failed), tests=cases)


def test_output_agreement_ranks_after_examples_and_before_test_counts() -> None:
    many = _report(["a", "b", "ex"], [])
    few = _report(["a", "ex"], ["b"])
    no_example = _report(["a", "b"], ["ex"])
    protected = frozenset({"ex"})
    assert judge([many, few, few], protected=protected).index == 1  # CodeT: 2x2 > 1x3
    assert judge([many, few, few], protected=protected, outputs_agree=[5, 1, 1]).index == 0
    # the member agreeing most is its group's pick; examples still come first
    assert judge([few, few, no_example], outputs_agree=[1, 4, 9], protected=protected).index == 1


@pytest.fixture(scope="module", params=["python", "javascript"])
def toolchain(request: pytest.FixtureRequest) -> Iterator[ToolchainClient]:
    settings = load_settings()
    if not DockerSandbox(settings).available():
        pytest.skip("no Docker daemon reachable")
    docker = settings.model_copy(
        update={"sandbox": settings.sandbox.model_copy(update={"backend": "docker"})}
    )
    with open_toolchain(docker, request.param) as client:
        yield client


CANDIDATES = {
    "python": [
        "def half(n):\n    print('noise')\n    return n / 2\n",
        "def half(n):\n    return n // 2\n",
        "def half(n):\n    return n * 0.5\n",
        "def half(n):\n    while True:\n        pass\n",
    ],
    "javascript": [
        "function half(n) { console.log('noise'); return n / 2; }\nmodule.exports = { half };\n",
        "function half(n) { return Math.floor(n / 2); }\nmodule.exports = { half };\n",
        "module.exports = function half(n) { return n * 0.5; };\n",
        "function half(n) { return n.foo.bar; }\nmodule.exports = { half };\n",
    ],
}
PROBE_TESTS = {
    "python": {
        "test_half.py": "from half import half\n\ndef test_h():\n"
        "    assert half(3) == 1\n    assert half(4) == 2\n"
    },
    "javascript": {
        "half.test.js": "const { half } = require('./half');\n"
        "test('h', () => { assert.strictEqual(half(3), 1); assert.strictEqual(half(4), 2); });\n"
    },
}


@pytest.mark.docker
def test_probe_runs_candidates_on_the_test_inputs_in_the_sandbox(
    toolchain: ToolchainClient,
) -> None:
    language = toolchain.server.language
    module = Module(name="half", purpose="halves", language=language, public_interface="half(n)")
    tests = PROBE_TESTS[language]
    calls = probe_calls(module, tests)
    assert calls == ["half(3)", "half(4)"]

    def run(files: dict[str, str], args: list[str], timeout: float):  # type: ignore[no-untyped-def]
        return toolchain.run(files, args, timeout_s=timeout)

    [exact, floor, times, broken] = [
        probe(run, module, {toolchain_path(language): code}, calls) for code in CANDIDATES[language]
    ]
    assert exact == times and exact is not None and floor is not None and exact != floor
    assert broken is not None and all(o.startswith("!") for o in broken)  # timeout / TypeError
    choice = choose(
        lambda files, tests: toolchain.run_tests(files, tests, 60),
        [{toolchain_path(language): c} for c in CANDIDATES[language]],
        tests,
        module,
        run_program=run,
    )
    # the test expects floor division, two candidates agree on true division: the outputs'
    # consensus outranks the test's expected values (repair may still follow the test)
    assert choice.index == 0 and choice.probes == 2
    agree = choice.output_agreement
    assert agree[0] == agree[2] > agree[1] and agree[3] == 0
    assert "outputs on 2 test inputs" in choice.note


def toolchain_path(language: str) -> str:
    return {"python": "half.py", "javascript": "half.js"}[language]
