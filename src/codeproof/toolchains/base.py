"""The Toolchain seam: how one language builds, checks, tests and runs code in a sandbox.

A toolchain is given an open :class:`~codeproof.sandbox.base.SandboxSession` with a
fresh workspace (the server opens one per tool call) and returns the structured
reports of :mod:`codeproof.core.types`. Implementations live in
``python.py``, ``node.py`` and ``java.py``, on the shared test run of
:class:`JUnitToolchain`, and are chosen through
:func:`codeproof.toolchains.registry.get_toolchain`.
"""

from __future__ import annotations

import posixpath
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Protocol, runtime_checkable

from codeproof.core.errors import InputError
from codeproof.core.types import CheckReport, Diagnostic, ProgramRun, TestCase, TestReport
from codeproof.sandbox.base import RunResult, SandboxSession
from codeproof.toolchains.junit import (
    JUnitCase,
    ReportParseError,
    parse_junit_xml,
    report_from_cases,
    truncate_middle,
)
from codeproof.toolchains.names import WORK_DIR, steady_names

OUTPUT_LIMIT = 20_000
"""Characters kept of a run's output (head and tail)."""

PER_TEST_SHARE = 1 / 6
"""The share of a test run's time limit one test may take."""

MIN_PER_TEST_S = 1.0
"""The least time one test may take, however short the run's limit."""


def per_test_limit_s(timeout_s: float) -> float:
    """The time one test may take in a run limited to ``timeout_s``.

    Each toolchain enforces it in its test framework, so a test that never returns fails
    alone instead of timing out the run, which would leave no test result at all.
    """
    return max(MIN_PER_TEST_S, timeout_s * PER_TEST_SHARE)


def per_test_limit_ms(timeout_s: float) -> int:
    """:func:`per_test_limit_s` in whole milliseconds (for node and JUnit)."""
    return round(per_test_limit_s(timeout_s) * 1000)


REPORT_LIMIT = 8 * 1024 * 1024
"""Bytes read back of a JUnit XML report."""

MAX_FILES = 200
MAX_TOTAL_BYTES = 5 * 1024 * 1024


@runtime_checkable
class Toolchain(Protocol):
    """One language's build, lint, test and run commands.

    Attributes:
        name: Toolchain name, as in ``codeproof mcp toolchain <name>``.
        language: Language it serves (names the ``conventions://<language>`` resource).
        sandbox_language: Sandbox image it runs in.
        run_usage: How ``run`` turns ``command_args`` into a command (tool description).
        conventions: How modules and tests are laid out (``conventions://<language>``).
    """

    name: str
    language: str
    sandbox_language: str
    run_usage: str
    conventions: str

    def run_tests(
        self,
        session: SandboxSession,
        files: Mapping[str, str],
        tests: Mapping[str, str],
        timeout_s: float,
    ) -> TestReport:
        """Put the files and tests in the workspace, run the tests, read the JUnit report."""
        ...

    def check(self, session: SandboxSession, files: Mapping[str, str]) -> CheckReport:
        """Compile or lint the files; diagnostics with file and line."""
        ...

    def run(
        self,
        session: SandboxSession,
        files: Mapping[str, str],
        command_args: Sequence[str],
        stdin: str | None,
        timeout_s: float,
    ) -> ProgramRun:
        """Run a program of the files with command line arguments and stdin."""
        ...


def validate_files(files: Mapping[str, str], what: str = "files") -> dict[str, str]:
    """Check that every path is a plain relative path inside the workspace.

    Raises:
        InputError: An absolute path, ``..``, an empty name, a path in the reserved
            ``.codeproof/`` directory, too many files or too much content.
    """
    if len(files) > MAX_FILES:
        raise InputError(f"{what}: {len(files)} files, at most {MAX_FILES} are accepted")
    total = 0
    clean: dict[str, str] = {}
    for path, content in files.items():
        normalized = posixpath.normpath(path) if path else ""
        if (
            not path
            or "\\" in path
            or "\0" in path
            or path.startswith("/")
            or normalized in {".", ".."}
            or normalized.startswith("../")
        ):
            raise InputError(
                f"{what}: invalid path {path!r}",
                hint="use a relative path inside the project, e.g. 'calc.py' or 'src/calc.py'",
            )
        if normalized == WORK_DIR or normalized.startswith(WORK_DIR + "/"):
            raise InputError(f"{what}: {path!r} is inside the reserved directory {WORK_DIR}/")
        total += len(content.encode())
        clean[normalized] = content
    if total > MAX_TOTAL_BYTES:
        raise InputError(f"{what}: {total} bytes of content, at most {MAX_TOTAL_BYTES} accepted")
    return clean


def validate_sources(
    files: Mapping[str, str], tests: Mapping[str, str]
) -> tuple[dict[str, str], dict[str, str]]:
    """Validated files and tests of one test run.

    Raises:
        InputError: A bad path, a path given both as a file and as a test, or no test.
    """
    clean_files = validate_files(files, "files")
    clean_tests = validate_files(tests, "tests")
    if not clean_tests:
        raise InputError("tests: no test file given", hint="pass at least one test file")
    both = sorted(set(clean_files) & set(clean_tests))
    if both:
        raise InputError(f"{', '.join(both)} given both as a file and as a test")
    return clean_files, clean_tests


def asset_text(package: str, name: str) -> str:
    """A helper script shipped in ``<package>/assets`` (a language package's own files)."""
    return resources.files(package).joinpath("assets", name).read_text("utf-8")


def combined_output(*results: RunResult) -> str:
    """Standard output then standard error of each run, truncated to :data:`OUTPUT_LIMIT`."""
    parts = [text for result in results for text in (result.stdout, result.stderr) if text]
    return truncate_middle("\n".join(part.rstrip("\n") for part in parts), OUTPUT_LIMIT)


def run_report(result: RunResult, *, duration_s: float | None = None) -> ProgramRun:
    """A :class:`ProgramRun` of one sandbox run, output truncated."""
    stdout = truncate_middle(result.stdout, OUTPUT_LIMIT)
    stderr = truncate_middle(result.stderr, OUTPUT_LIMIT)
    return ProgramRun(
        exit_code=result.exit_code,
        stdout=stdout,
        stderr=stderr,
        timed_out=result.timed_out,
        truncated=result.truncated or stdout != result.stdout or stderr != result.stderr,
        duration_s=round(result.duration_s if duration_s is None else duration_s, 3),
    )


def read_cases(session: SandboxSession, path: str) -> tuple[list[JUnitCase] | None, str]:
    """Parse the JUnit report at ``path``; ``(None, reason)`` when missing or unreadable."""
    document = session.read_file(path, max_bytes=REPORT_LIMIT)
    if document is None:
        return None, "the test run produced no report"
    try:
        return parse_junit_xml(document), ""
    except ReportParseError as exc:
        return None, f"the test report is unreadable ({exc})"


def _run_problem(result: RunResult, timeout_s: float) -> str:
    if result.timed_out:
        return (
            f"the tests timed out after {timeout_s:g} s (an infinite loop, a deadlock or a "
            "test waiting for input?)"
        )
    if result.oom_killed:
        return "the tests were killed: out of memory"
    return ""


def finish_report(
    cases: list[TestCase] | None,
    reason: str,
    result: RunResult,
    *,
    timeout_s: float,
    no_tests_message: str,
    output: str,
    duration_s: float,
) -> TestReport:
    """The :class:`TestReport` of a test run, from the cases its report holds.

    Args:
        cases: Test cases read from the report, or ``None`` when there is none.
        reason: Why there is no report (used when ``cases`` is ``None``).
        result: The run of the test framework.
        timeout_s: The timeout the run had.
        no_tests_message: Message when the report holds no test at all.
        output: Combined, truncated output of the run(s).
        duration_s: Wall time of the whole tool call.
    """
    problem = _run_problem(result, timeout_s)
    if cases is None:
        message = problem or f"{reason} (exit code {result.exit_code}); see the output"
        cases_found: list[TestCase] = []
    else:
        message = problem or ("" if cases else no_tests_message)
        cases_found = cases
    report = report_from_cases(
        cases_found,
        output=output,
        duration_s=round(duration_s, 3),
        timed_out=result.timed_out,
        message=message,
    )
    if cases is None:
        report.errors = 1
    return report


def error_report(message: str, output: str, duration_s: float) -> TestReport:
    """A run that could not start (e.g. compilation failed): no test ran, one error."""
    return TestReport(errors=1, message=message, output=output, duration_s=round(duration_s, 3))


@dataclass(frozen=True)
class TestPlan:
    """How one language runs its tests.

    Attributes:
        command: The test framework's command line.
        report: Workspace path of the JUnit XML report it writes.
        assets: Helper files put in the workspace with the sources (e.g. a reporter).
    """

    __test__ = False  # not a pytest class

    command: list[str]
    report: str
    assets: dict[str, str] = field(default_factory=dict)


class JUnitToolchain(ABC):
    """The test and program runs every built-in toolchain shares; a language supplies
    what differs.

    :meth:`run_tests` picks the test files by suffix, puts the sources in the workspace,
    runs :meth:`prepare` (e.g. a compiler), then the command of :meth:`plan_tests`, and
    builds the report from the JUnit XML file that command writes. :meth:`run` puts the
    files in the workspace, runs :meth:`prepare` on them, then ``run_prefix`` followed
    by the arguments. Subclasses set the attributes below and implement
    :meth:`plan_tests` and ``check``.

    Attributes:
        run_prefix: The command :meth:`run` puts before the arguments.
        test_suffixes: File name endings of the test files.
        no_test_file_message: Message when no test has one of ``test_suffixes``.
        no_tests_hint: How tests are declared, said when the report holds no test.
    """

    name: str
    language: str
    sandbox_language: str
    run_usage: str
    run_prefix: tuple[str, ...]
    test_suffixes: tuple[str, ...]
    no_test_file_message: str
    no_tests_hint: str

    def run_tests(
        self,
        session: SandboxSession,
        files: Mapping[str, str],
        tests: Mapping[str, str],
        timeout_s: float,
    ) -> TestReport:
        """Put the files and tests in the workspace, run the tests, read the JUnit report."""
        started = time.monotonic()
        test_files = sorted(path for path in tests if path.endswith(self.test_suffixes))
        if not test_files:
            return report_from_cases([], message=self.no_test_file_message)
        plan = self.plan_tests(test_files, timeout_s)
        sources = {**files, **tests}
        session.put_files({**sources, **plan.assets})
        prepared, failure = self.prepare(session, sorted(sources))
        if failure:
            report = error_report(failure, combined_output(*prepared), time.monotonic() - started)
            report.diagnostics = self.compile_errors(prepared)
            return report
        result = session.run(plan.command, timeout_s=timeout_s)
        raw, reason = read_cases(session, plan.report)
        output = steady_names(combined_output(*prepared, result), [plan.report, *plan.assets])
        return finish_report(
            None if raw is None else self.test_cases(raw, test_files, output),
            reason,
            result,
            timeout_s=timeout_s,
            no_tests_message=f"no tests found in {', '.join(test_files)}: {self.no_tests_hint}",
            output=output,
            duration_s=time.monotonic() - started,
        )

    def run(
        self,
        session: SandboxSession,
        files: Mapping[str, str],
        command_args: Sequence[str],
        stdin: str | None,
        timeout_s: float,
    ) -> ProgramRun:
        """``run_prefix`` and ``command_args`` in the workspace, after :meth:`prepare`.

        The duration is the program's own, or the whole call's when something was
        prepared; when the preparation fails, its run is reported with the reason first
        in standard error.
        """
        started = time.monotonic()
        session.put_files(dict(files))
        prepared, failure = self.prepare(session, sorted(files))
        if failure:
            report = run_report(prepared[-1], duration_s=time.monotonic() - started)
            report.stderr = f"{failure}\n{report.stderr}"
            return report
        command = [*self.run_prefix, *command_args]
        result = session.run(command, timeout_s=timeout_s, stdin=stdin)
        return run_report(result, duration_s=time.monotonic() - started if prepared else None)

    @abstractmethod
    def plan_tests(self, test_files: Sequence[str], timeout_s: float) -> TestPlan:
        """The command that runs ``test_files`` and the report it writes.

        ``timeout_s`` is the whole run's limit; a language may give each test a share.
        """

    def prepare(self, session: SandboxSession, paths: Sequence[str]) -> tuple[list[RunResult], str]:
        """Runs needed before the tests or the program (none by default).

        Args:
            session: The session holding the sources.
            paths: Workspace paths of the sources, sorted.

        Returns:
            The runs (their output goes in the report) and why the tests or the program
            cannot run (empty when they can); on failure the last run is the failed one.
        """
        return [], ""

    def compile_errors(self, prepared: Sequence[RunResult]) -> list[Diagnostic]:
        """The errors of a failed :meth:`prepare`, file by file (none by default: the
        report's message and output say what failed)."""
        return []

    def test_cases(
        self, cases: Sequence[JUnitCase], test_files: Sequence[str], output: str
    ) -> list[TestCase]:
        """The report's cases as test cases, named ``classname.name``."""
        return [case.to_test_case(case.qualified_name) for case in cases]
