"""Proposed inputs: probes without expected values that separate candidates the tests cannot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from codeproof.choosing.selection import choose
from codeproof.core.types import Module, ProgramRun, TestCase, TestReport

MODULE = Module(name="m", purpose="Doubles n.", language="python", public_interface="f(n)")
TESTS = {
    "test_m.py": "from m import f\n\ndef test_a():\n    assert f(2) == 4\n    assert f(0) == 0\n"
}
CANDIDATES = [
    {"m.py": "def f(n):\n    return abs(n) * 2\n"},  # wrong on negatives only
    {"m.py": "def f(n):\n    return n * 2\n"},
    {"m.py": "def f(n):\n    return n + n\n"},
    {"m.py": "def f(n):\n    return 2 * n\n"},
]
INPUTS = ["f(-3)", "print(f(5))", "import os", "f(x)", "f(2)"]


def _green(files: dict[str, str], tests: dict[str, str]) -> TestReport:
    return TestReport(total=1, passed=1, tests=[TestCase(name="test_a", outcome="passed")])


def _runner(tmp_path: Path, budgets: list[float] | None = None):  # type: ignore[no-untyped-def]
    """Runs the probe program for real, in a scratch directory (trusted test code)."""
    count = iter(range(100))

    def run(files: dict[str, str], args: list[str], timeout: float) -> ProgramRun:
        if budgets is not None:
            budgets.append(timeout)
        work = tmp_path / str(next(count))
        work.mkdir()
        for name, text in files.items():
            (work / name).write_text(text)
        done = subprocess.run(
            [sys.executable, *args], cwd=work, capture_output=True, text=True, timeout=timeout
        )
        return ProgramRun(exit_code=done.returncode, stdout=done.stdout, stderr=done.stderr)

    return run


def test_the_tests_inputs_tie_and_the_greedy_candidate_wins(tmp_path: Path) -> None:
    run = _runner(tmp_path)
    choice = choose(_green, CANDIDATES, TESTS, MODULE, run_program=run, mutated=0)
    assert choice.index == 0 and choice.probes == 2 and choice.proposed == 0
    assert len(set(choice.output_agreement)) == 1
    assert choice.mutants == 0 and "mutated" not in choice.note


def test_mutated_inputs_break_the_tie_in_runs_of_their_own(tmp_path: Path) -> None:
    budgets: list[float] = []
    choice = choose(_green, CANDIDATES, TESTS, MODULE, run_program=_runner(tmp_path, budgets))
    # f(2) and f(0) mutate into f(3), f(1), f(-2), f(-1): abs(n) * 2 is alone on negatives
    assert choice.mutants == 4
    assert choice.index == 1
    assert choice.mutant_agreement == [6, 10, 10, 10]
    assert len(set(choice.output_agreement)) == 1
    assert budgets == [30.0 + 2.0 * 2] * 4 + [30.0 + 2.0 * 4] * 4
    assert "on 4 mutated inputs (tie-break) [6, 10, 10, 10] times" in choice.note


def test_mutated_inputs_only_break_ties(tmp_path: Path) -> None:
    candidates = [
        {"m.py": "def f(n):\n    return n * 2\n"},
        {"m.py": "def f(n):\n    return 5 if n == 0 else (99 if n < 0 else n * 2)\n"},
        {"m.py": "def f(n):\n    return 5 if n == 0 else n * 2\n"},
    ]
    run = _runner(tmp_path)
    untied = choose(_green, candidates, TESTS, MODULE, run_program=run, mutated=0)
    choice = choose(_green, candidates, TESTS, MODULE, run_program=run)

    # the tests' inputs favour the two that return 5 for f(0); the greedy one of them wins
    assert untied.output_agreement == [2, 3, 3] and untied.index == 1
    # on the negative mutants candidates 0 and 2 agree: 2 wins the tie with 1, while 0,
    # as high on the mutants, stays behind on the tests' inputs
    assert choice.mutant_agreement == [6, 4, 6]
    assert choice.index == 2


def test_proposed_inputs_separate_a_candidate_wrong_on_an_edge(tmp_path: Path) -> None:
    budgets: list[float] = []
    run = _runner(tmp_path, budgets)
    choice = choose(_green, CANDIDATES, TESTS, MODULE, run_program=run, inputs=INPUTS, mutated=0)
    # f(-3) and f(5) are new probes; f(x) is no literal call, f(2) is already a test's
    assert choice.probes == 4 and choice.proposed == 2
    # each call may take its 2 s: the budget of a candidate's run grows with the calls
    assert budgets == [30.0 + 2.0 * 4] * 4
    assert choice.index == 1
    assert choice.output_agreement[0] < choice.output_agreement[1]
    assert "outputs on 4 inputs (2 from the tests, 2 proposed)" in choice.note
    assert choice.quarantined == []


def test_one_candidate_is_not_probed(tmp_path: Path) -> None:
    choice = choose(
        _green, CANDIDATES[:1], TESTS, MODULE, run_program=_runner(tmp_path), inputs=INPUTS
    )
    assert choice.index == 0 and choice.probes == 0 and choice.proposed == 0
    assert list(tmp_path.iterdir()) == []
