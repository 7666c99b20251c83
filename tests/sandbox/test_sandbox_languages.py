"""Each language image runs its toolchain, identically on docker and bubblewrap."""

from __future__ import annotations

import pytest
from sandbox_cases import ISOLATED, OpenSession

from codeproof.languages.java.toolchain import JUNIT_CONSOLE_JAR

pytestmark = pytest.mark.parametrize("backend", ISOLATED, indirect=True)

JAVA_TEST = """
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

class AddTest {
    @Test
    void adds() { assertEquals(3, 1 + 2); }
}
"""


def test_python_pytest_and_ruff(open_box: OpenSession) -> None:
    box = open_box("python")
    box.put_files({"test_a.py": "def test_a():\n    assert 1 + 1 == 2\n"})
    result = box.run(["python3", "-m", "pytest", "-q", "--junitxml=report.xml"])
    assert result.exit_code == 0, result.stdout
    report = box.read_file("report.xml")
    assert report is not None and b'tests="1"' in report
    assert box.run(["ruff", "check", "test_a.py"]).exit_code == 0


def test_node_runs_its_test_runner(open_box: OpenSession) -> None:
    box = open_box("node")
    box.put_files({"a.test.js": "const t = require('node:test');\nt.test('x', () => {});\n"})
    result = box.run(["node", "--test", "a.test.js"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "pass 1" in result.stdout


@pytest.mark.slow
def test_java_compiles_and_runs_junit5(open_box: OpenSession) -> None:
    box = open_box("java", pids=256, memory_bytes=768 * 1024**2, timeout_s=120)
    box.put_files({"AddTest.java": JAVA_TEST})
    compiled = box.run(["javac", "-cp", JUNIT_CONSOLE_JAR, "-d", "out", "AddTest.java"])
    assert compiled.exit_code == 0, compiled.stderr
    command = [
        "java", "-jar", JUNIT_CONSOLE_JAR, "-cp", "out", "--select-class", "AddTest",
        "--reports-dir", "reports", "--disable-banner",
    ]  # fmt: skip
    result = box.run(command)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert box.read_file("reports/TEST-junit-jupiter.xml") is not None
