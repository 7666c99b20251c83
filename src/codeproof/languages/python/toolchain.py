"""The Python toolchain: pytest with a JUnit XML report, py_compile + ruff, python3."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ValidationError

from codeproof.core.errors import ToolchainError
from codeproof.core.types import CheckReport, Diagnostic, TestCase
from codeproof.sandbox.base import SandboxSession
from codeproof.toolchains.base import (
    JUnitToolchain,
    TestPlan,
    asset_text,
    per_test_limit_s,
)
from codeproof.toolchains.junit import JUnitCase
from codeproof.toolchains.names import fresh_name

# flake8's classic "fatal" selection: syntax errors, invalid comparisons and statements,
# undefined names. Every other ruff finding is a warning.
RUFF_ERROR_PREFIXES = ("E9", "F63", "F7", "F82")


class _RawDiagnostic(BaseModel):
    file: str
    line: int | None = None
    column: int | None = None
    message: str
    code: str | None = None
    source: str


class _CheckOutput(BaseModel):
    diagnostics: list[_RawDiagnostic]
    notes: list[str]


def _severity(raw: _RawDiagnostic) -> Literal["error", "warning"]:
    if raw.source == "py_compile" or raw.code is None:
        return "error"
    return "error" if raw.code.startswith(RUFF_ERROR_PREFIXES) else "warning"


def pytest_message(text: str) -> str:
    """A pytest failure text with its ``E   `` lines (the assertion or exception) first."""
    explanation = [line for line in text.splitlines() if line.startswith("E ")]
    if not explanation:
        return text
    return "\n".join(explanation) + "\n\n" + text


CONVENTIONS = """\
Python toolchain conventions (Python 3, pytest):
- The module is one file `<module>.py` at the project root (no package, no sub-directory).
- Its tests are in `test_<module>.py` at the project root and import the module with
  `from <module> import <names>`.
- Tests are plain pytest functions named `test_*` that check results with plain `assert`
  statements (use `pytest.raises` for expected exceptions); no unittest classes.
- Only the standard library and pytest are available. No network access, and no files
  outside the current working directory.
"""
"""Served as ``conventions://<language>``; the agents put it verbatim in their prompts."""


class PythonToolchain(JUnitToolchain):
    """Python 3 with pytest (and ruff when the image has it)."""

    name = "python"
    conventions = CONVENTIONS
    language = "python"
    sandbox_language = "python"
    run_usage = "runs python3 <command_args>, e.g. ['main.py', '--count', '3']"
    run_prefix = ("python3",)
    test_suffixes = (".py",)
    no_test_file_message = "no Python test file among the tests (expected test_<module>.py)"
    no_tests_hint = "pytest collects functions named test_* (see conventions://python)"

    def plan_tests(self, test_files: Sequence[str], timeout_s: float) -> TestPlan:
        """pytest with a ``--junitxml`` report and a time limit per test.

        A test file that cannot be collected is one error, and the other files still
        run: pytest's default stops the whole session, so one broken designed test file
        (py-bill-split: a name it never imported) hid the user's stated examples from
        every draft, and all seven drafts looked alike.

        Each test may take :func:`~codeproof.toolchains.base.per_test_limit_s` (a runner
        sets ``SIGALRM`` around its call).
        """
        report = fresh_name("pytest", ".xml")
        runner = fresh_name("pytestrun", ".py")
        per_test = per_test_limit_s(timeout_s)
        command = [
            "python3", "-B", runner, f"{per_test:g}", "-q", "-p", "no:cacheprovider",
            "--color=no", "--tb=short", "-o", "junit_family=xunit2", f"--junitxml={report}",
            "--rootdir=.", "--continue-on-collection-errors", *test_files,
        ]  # fmt: skip
        return TestPlan(command, report, {runner: asset_text(__package__ or "", "pytestrun.py")})

    def test_cases(
        self, cases: Sequence[JUnitCase], test_files: Sequence[str], output: str
    ) -> list[TestCase]:
        """Cases named ``module.test``, the assertion first in their messages."""
        return [
            case.to_test_case(case.qualified_name, pytest_message(case.message)) for case in cases
        ]

    def check(self, session: SandboxSession, files: Mapping[str, str]) -> CheckReport:
        """``py_compile`` every ``.py`` file, then ruff (when installed) on the others."""
        sources = sorted(path for path in files if path.endswith(".py"))
        if not sources:
            return CheckReport(ok=True, message="no Python file to check")
        checker = fresh_name("pycheck", ".py")
        session.put_files({**files, checker: asset_text(__package__ or "", "pycheck.py")})
        result = session.run(["python3", "-B", checker, *sources])
        try:
            output = _CheckOutput.model_validate(json.loads(result.stdout))
        except (ValueError, ValidationError) as exc:
            raise ToolchainError(
                f"the Python checker failed (exit code {result.exit_code}): "
                f"{(result.stderr or result.stdout).strip()[:500]}",
                language=self.name,
                hint="check the python sandbox image (codeproof doctor)",
            ) from exc
        diagnostics = [
            Diagnostic(
                file=raw.file,
                line=raw.line,
                column=raw.column,
                message=raw.message,
                severity=_severity(raw),
                code=raw.code,
            )
            for raw in output.diagnostics
        ]
        return CheckReport(
            ok=all(d.severity != "error" for d in diagnostics),
            diagnostics=diagnostics,
            message="; ".join(output.notes),
        )
