"""The Java toolchain: javac and the JUnit 5 console launcher's XML reports."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence

from codeproof.core.types import CheckReport, Diagnostic
from codeproof.sandbox.base import RunResult, SandboxSession
from codeproof.toolchains.base import (
    JUnitToolchain,
    TestPlan,
    per_test_limit_ms,
)
from codeproof.toolchains.junit import truncate_head
from codeproof.toolchains.names import WORK_DIR, fresh_name

CLASSES_DIR = f"{WORK_DIR}/classes"
# Quicker start-up for short-lived JVMs: C1 only, serial GC.
JVM_FLAGS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
COMPILE_TIMEOUT_S = 120.0
_DIAGNOSTIC = re.compile(
    r"^(?P<file>[^\s:][^:]*\.java):(?P<line>\d+): (?P<sev>error|warning): (?P<msg>.*)$"
)


def parse_javac_output(output: str) -> list[Diagnostic]:
    """Diagnostics of ``javac`` (``File.java:3: error: message`` lines; the caret line
    below the source excerpt gives the column)."""
    lines = output.splitlines()
    found: list[Diagnostic] = []
    for index, text in enumerate(lines):
        match = _DIAGNOSTIC.match(text)
        if not match:
            continue
        column = None
        if index + 2 < len(lines) and lines[index + 2].strip() == "^":
            column = lines[index + 2].index("^") + 1
        found.append(
            Diagnostic(
                file=match["file"],
                line=int(match["line"]),
                column=column,
                message=match["msg"],
                severity="error" if match["sev"] == "error" else "warning",
            )
        )
    return found


def _compile(
    session: SandboxSession, sources: Sequence[str], out_dir: str, *lint: str
) -> RunResult:
    command = [
        "javac", *(f"-J{flag}" for flag in JVM_FLAGS), "-encoding", "UTF-8", *lint,
        "-cp", JUNIT_CONSOLE_JAR, "-d", out_dir, *sources,
    ]  # fmt: skip
    return session.run(command, timeout_s=COMPILE_TIMEOUT_S)


def _compile_failure(result: RunResult) -> str:
    if result.timed_out:
        return f"compilation timed out after {COMPILE_TIMEOUT_S:g} s"
    errors = [d for d in parse_javac_output(result.stderr + result.stdout) if d.severity == "error"]
    listed = "; ".join(f"{d.file}:{d.line}: {d.message}" for d in errors[:10])
    return truncate_head(f"compilation failed: {listed or result.stderr.strip()}", 2_000)


JUNIT_CONSOLE_JAR = "/usr/share/java/junit-platform-console-standalone.jar"
"""Where Debian's junit5 package puts the console launcher in the Java image."""

CONVENTIONS = """\
Java toolchain conventions (Java 17, JUnit 5):
- The code is a public class `<ClassName>` in `<ClassName>.java` at the project root, in the
  default package: no `package` line.
- Its tests are the class `<ClassName>Test` in `<ClassName>Test.java` at the project root,
  also in the default package, using JUnit 5:
  `import org.junit.jupiter.api.Test;`
  `import static org.junit.jupiter.api.Assertions.*;`
- Each test is a method annotated with `@Test` (package-private `void` methods are fine) that
  checks results with `assertEquals`, `assertTrue`, `assertFalse` or `assertThrows`.
- Only the JDK standard library and JUnit 5 are available. No network access, and no files
  outside the current working directory.
"""
"""Served as ``conventions://<language>``; the agents put it verbatim in their prompts."""


class JavaToolchain(JUnitToolchain):
    """Java (Debian's default JDK) with JUnit 5."""

    name = "java"
    conventions = CONVENTIONS
    language = "java"
    sandbox_language = "java"
    run_usage = (
        "compiles every .java file, then runs java -cp <classes> <command_args>, "
        "e.g. ['Main', '--count', '3'] (the first argument is the main class)"
    )
    run_prefix = ("java", *JVM_FLAGS, "-cp", CLASSES_DIR)
    test_suffixes = (".java",)
    no_test_file_message = "no Java test file among the tests (expected <ClassName>Test.java)"
    no_tests_hint = (
        "JUnit 5 runs methods annotated with @Test from org.junit.jupiter.api "
        "(see conventions://java)"
    )

    def plan_tests(self, test_files: Sequence[str], timeout_s: float) -> TestPlan:
        """The JUnit 5 console launcher on the test classes (compiled by :meth:`prepare`).

        Each test method may take :func:`~codeproof.toolchains.base.per_test_limit_s`,
        and runs in a thread of its own, so that even a loop that never checks for
        interruption fails alone (the launcher exits when the tests are done).
        """
        reports_dir = fresh_name("junit-reports")
        limit_ms = per_test_limit_ms(timeout_s)
        selectors = [
            arg
            for path in test_files
            for arg in ("--select-class", posixpath.splitext(posixpath.basename(path))[0])
        ]
        command = [
            "java", *JVM_FLAGS, "-jar", JUNIT_CONSOLE_JAR, "--disable-banner",
            "--disable-ansi-colors", "--details=tree", "-cp", CLASSES_DIR, *selectors,
            "--reports-dir", reports_dir,
            "--config", f"junit.jupiter.execution.timeout.default={limit_ms} ms",
            "--config", "junit.jupiter.execution.timeout.thread.mode.default=SEPARATE_THREAD",
        ]  # fmt: skip
        return TestPlan(command, f"{reports_dir}/TEST-junit-jupiter.xml")

    def prepare(self, session: SandboxSession, paths: Sequence[str]) -> tuple[list[RunResult], str]:
        """``javac`` every ``.java`` file into the classes directory."""
        sources = [path for path in paths if path.endswith(".java")]
        if not sources:
            return [], ""
        compiled = _compile(session, sources, CLASSES_DIR)
        failed = compiled.exit_code != 0 or compiled.timed_out
        return [compiled], _compile_failure(compiled) if failed else ""

    def compile_errors(self, prepared: Sequence[RunResult]) -> list[Diagnostic]:
        """``javac``'s errors (its warnings left out)."""
        output = "".join(r.stderr + r.stdout for r in prepared[-1:])
        return [d for d in parse_javac_output(output) if d.severity == "error"]

    def check(self, session: SandboxSession, files: Mapping[str, str]) -> CheckReport:
        """``javac -Xlint:all`` on every Java file."""
        sources = sorted(path for path in files if path.endswith(".java"))
        if not sources:
            return CheckReport(ok=True, message="no Java file to check")
        session.put_files(dict(files))
        result = _compile(session, sources, fresh_name("check-classes"), "-Xlint:all")
        diagnostics = parse_javac_output(result.stderr + result.stdout)
        ok = result.exit_code == 0 and not result.timed_out
        if not ok and not any(d.severity == "error" for d in diagnostics):
            diagnostics.append(Diagnostic(file="", message=_compile_failure(result)))
        return CheckReport(ok=ok, diagnostics=diagnostics)
