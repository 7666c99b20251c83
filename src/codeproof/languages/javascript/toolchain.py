"""The JavaScript toolchain: Node's built-in test runner with a JUnit XML reporter."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from pydantic import BaseModel, TypeAdapter, ValidationError

from codeproof.core.errors import ToolchainError
from codeproof.core.types import CheckReport, Diagnostic, TestCase
from codeproof.sandbox.base import SandboxSession
from codeproof.toolchains.base import (
    JUnitToolchain,
    TestPlan,
    asset_text,
    per_test_limit_ms,
)
from codeproof.toolchains.junit import JUnitCase, truncate_head
from codeproof.toolchains.names import fresh_name

JS_SUFFIXES = (".js", ".cjs", ".mjs")
_LOCATION = re.compile(r"^(?P<file>.+):(?P<line>\d+)$")
_ERROR_LINE = re.compile(r"^(?P<type>[A-Za-z]*Error): (?P<message>.*)$")


class _CheckedFile(BaseModel):
    file: str
    status: int | None
    stderr: str


_CHECKED = TypeAdapter(list[_CheckedFile])


def parse_check_stderr(file: str, stderr: str) -> Diagnostic:
    """The diagnostic of a failed ``node --check``.

    Node prints ``<path>:<line>``, the source line, a caret line under the error and
    ``SyntaxError: <message>``.
    """
    lines = stderr.splitlines()
    line: int | None = None
    column: int | None = None
    if lines and (location := _LOCATION.match(lines[0])):
        line = int(location["line"])
        if len(lines) > 2 and "^" in lines[2]:
            column = lines[2].index("^") + 1
    message = next(
        (f"{m['type']}: {m['message']}" for text in lines if (m := _ERROR_LINE.match(text))),
        stderr.strip()[:500] or "node --check failed",
    )
    return Diagnostic(file=file, line=line, column=column, message=message)


def _is_test_file_name(name: str, test_files: Sequence[str]) -> str | None:
    """The test file a runner-level test name refers to (node names them by path)."""
    for path in test_files:
        if name == path or name.endswith("/" + path):
            return path
    return None


def load_error(output: str) -> str:
    """The first ``XxxError: message`` of the output with the lines locating it."""
    lines = output.splitlines()
    for index, line in enumerate(lines):
        if _ERROR_LINE.match(line.strip()):
            return "\n".join(lines[max(index - 4, 0) : index + 1]).strip()
    return ""


def _unescaped(case: JUnitCase) -> JUnitCase:
    """``case`` with node's doubled escape of ``"`` undone: its JUnit reporter writes a
    quote in an attribute as ``&amp;quot;`` (Node 20), so the parsed name of
    ``test('f("a")', ...)`` reads ``f(&quot;a&quot;)``, and no test of the file has that
    name (setting it aside, or narrowing a repair to it, found nothing)."""
    fixed = [text.replace("&quot;", '"') for text in (case.name, case.message, *case.suites)]
    name, message, *suites = fixed
    return replace(case, name=name, message=message, suites=tuple(suites))


def normalize_cases(
    cases: Sequence[JUnitCase], test_files: Sequence[str], output: str
) -> list[TestCase]:
    """Turn node:test report cases into test cases (names as the test files write them).

    The runner reports each test file as a test of its own when the file has no tests
    or fails before or after its tests: a passing one is not a test (a file that prints
    "passed" and exits 0 proves nothing) and is dropped, a failing one is an ``error``
    (e.g. a syntax error in the module it requires). A suite named after the file
    (older runtimes wrap the file's tests in it) is left out of test names.
    """
    out: list[TestCase] = []
    for case in map(_unescaped, cases):
        suites = case.suites
        if suites and _is_test_file_name(suites[0], test_files):
            suites = suites[1:]
        file = _is_test_file_name(case.name, test_files) if not suites else None
        if file is None:
            out.append(case.to_test_case(" > ".join((*suites, case.name))))
        elif case.outcome in ("failed", "error"):
            detail = load_error(output) or case.message
            message = f"{file} failed to load or exited with an error:\n{detail}"
            out.append(TestCase(name=file, outcome="error", message=truncate_head(message, 1_500)))
    return out


LIMIT_TOKEN = "@LIMIT_MS@"
"""Where ``assets/nodelimit.cjs`` takes the per-test limit in milliseconds."""


CONVENTIONS = """\
JavaScript toolchain conventions (Node.js, CommonJS, built-in test runner):
- The module is one file `<module>.js` at the project root, written as CommonJS: it ends
  with `module.exports = { ... }` listing the exported functions or classes.
- Its tests are in `<module>.test.js` at the project root and start with:
  `const test = require('node:test');`
  `const assert = require('node:assert/strict');`
  and load the module with `const { <names> } = require('./<module>');`.
- Each test is `test('<description>', () => { ... });` and checks results with
  `assert.strictEqual`, `assert.deepStrictEqual`, `assert.ok` or `assert.throws`.
- Only Node's built-in modules are available (no npm packages). No network access, and no
  files outside the current working directory.
"""
"""Served as ``conventions://<language>``; the agents put it verbatim in their prompts."""


class NodeToolchain(JUnitToolchain):
    """Node.js with ``node --test`` (CommonJS modules, ``node:assert``)."""

    name = "node"
    conventions = CONVENTIONS
    language = "javascript"
    sandbox_language = "node"
    run_usage = "runs node <command_args>, e.g. ['main.js', '--count', '3']"
    run_prefix = ("node",)
    test_suffixes = JS_SUFFIXES
    no_test_file_message = "no JavaScript test file among the tests (expected <module>.test.js)"
    no_tests_hint = (
        "declare tests with test('...', () => { ... }) from require('node:test') "
        "(see conventions://javascript)"
    )

    def plan_tests(self, test_files: Sequence[str], timeout_s: float) -> TestPlan:
        """``node --test`` with our JUnit reporter to a file and the spec one to stdout.

        A preloaded script gives each ``test()``/``it()`` from ``node:test``
        :func:`~codeproof.toolchains.base.per_test_limit_s`, enforced by a ``vm`` timeout
        that also stops a synchronous loop.
        """
        reporter = fresh_name("junit-reporter", ".mjs")
        limiter = fresh_name("nodelimit", ".cjs")
        report = fresh_name("node-test", ".xml")
        limit_ms = per_test_limit_ms(timeout_s)
        command = [
            "node", f"--require=./{limiter}", "--test",
            f"--test-reporter=./{reporter}", f"--test-reporter-destination={report}",
            "--test-reporter=spec", "--test-reporter-destination=stdout",
            *test_files,
        ]  # fmt: skip
        assets = {
            reporter: asset_text(__package__ or "", "junit-reporter.mjs"),
            limiter: asset_text(__package__ or "", "nodelimit.cjs").replace(
                LIMIT_TOKEN, str(limit_ms)
            ),
        }
        return TestPlan(command, report, assets)

    def test_cases(
        self, cases: Sequence[JUnitCase], test_files: Sequence[str], output: str
    ) -> list[TestCase]:
        """See :func:`normalize_cases`."""
        return normalize_cases(cases, test_files, output)

    def check(self, session: SandboxSession, files: Mapping[str, str]) -> CheckReport:
        """``node --check`` every JavaScript file."""
        sources = sorted(path for path in files if path.endswith(JS_SUFFIXES))
        if not sources:
            return CheckReport(ok=True, message="no JavaScript file to check")
        checker = fresh_name("nodecheck", ".cjs")
        session.put_files({**files, checker: asset_text(__package__ or "", "nodecheck.cjs")})
        result = session.run(["node", checker, *sources])
        try:
            checked = _CHECKED.validate_python(json.loads(result.stdout))
        except (ValueError, ValidationError) as exc:
            raise ToolchainError(
                f"the JavaScript checker failed (exit code {result.exit_code}): "
                f"{(result.stderr or result.stdout).strip()[:500]}",
                language=self.name,
                hint="check the node sandbox image (codeproof doctor)",
            ) from exc
        diagnostics = [parse_check_stderr(c.file, c.stderr) for c in checked if c.status != 0]
        return CheckReport(ok=not diagnostics, diagnostics=diagnostics)
