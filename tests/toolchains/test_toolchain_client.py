"""The synchronous client facade: failures (fake servers) and real use (Docker)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from toolchain_cases import PYTHON

from codeproof.core.config import Settings, load_settings
from codeproof.core.errors import InputError, ToolchainError
from codeproof.core.types import TestReport
from codeproof.toolchains import client as client_module
from codeproof.toolchains.client import ToolchainClient, open_toolchain
from codeproof.toolchains.registry import get_toolchain

FAKE = str(Path(__file__).with_name("fake_toolchain_server.py"))


def fake_settings(mode: str, **sandbox: object) -> Settings:
    return load_settings(
        toolchains={"fake": {"command": [sys.executable, FAKE, mode]}}, sandbox=sandbox or None
    )


def test_missing_server_executable_is_a_toolchain_error_with_a_fix() -> None:
    settings = load_settings(toolchains={"ghost": {"command": ["/nonexistent/ghost-server"]}})
    with pytest.raises(ToolchainError) as caught:
        open_toolchain(settings, "ghost")
    assert caught.value.language == "ghost"
    assert "cannot start the toolchain server" in caught.value.message
    assert caught.value.hint is not None and "[toolchains.ghost]" in caught.value.hint


def test_server_crash_is_reported_and_the_next_call_restarts_it() -> None:
    with ToolchainClient(fake_settings("crash"), "fake") as client:
        with pytest.raises(ToolchainError) as caught:
            client.run_tests({"a.py": "x"}, {"test_a.py": "y"})
        assert "exited during run_tests" in caught.value.message
        assert "fake server dying" in caught.value.message
        assert client.conventions() == "conventions of the crash server"
    (record,) = client.calls
    assert (record.tool, record.ok) == ("run_tests", False)


def test_hung_call_times_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client_module, "CALL_MARGIN_S", 0.0)
    client = ToolchainClient(fake_settings("hang", timeout_s=1.0), "fake")
    with client, pytest.raises(ToolchainError, match="no answer within 1 s"):
        client.check({"a.py": "x = 1\n"})
    assert client.calls[0].ok is False


def test_text_only_results_and_any_conventions_uri_are_understood() -> None:
    with ToolchainClient(fake_settings("text"), "fake") as client:
        report = client.run_tests({"a.py": "x"}, {"test_a.py": "y", "test_b.py": "z"})
        assert (report.total, report.passed) == (2, 2)
        assert client.conventions() == "conventions of the text server"
    assert client.calls[0].result == "2 tests: 2 passed, 0 failed, 0 errors, 0 skipped"


def test_bad_paths_are_rejected_before_any_call() -> None:
    client = ToolchainClient(fake_settings("crash"), "fake")
    with pytest.raises(InputError):
        client.run_tests({"../a.py": "x"}, {"test_a.py": "y"})
    with pytest.raises(InputError):
        client.check({"/etc/passwd": "x"})
    assert client.calls == []
    client.close()


@pytest.mark.docker
def test_real_python_toolchain_from_two_threads(docker_daemon: None) -> None:
    settings = load_settings(sandbox={"backend": "docker"})
    results: list[TestReport] = []
    errors: list[BaseException] = []

    def work(files: dict[str, str]) -> None:
        try:
            results.append(client.run_tests(files, PYTHON.tests))
        except BaseException as exc:
            errors.append(exc)

    with open_toolchain(settings, "py") as client:
        assert client.conventions() == get_toolchain("python").conventions
        threads = [
            threading.Thread(target=work, args=(files,)) for files in (PYTHON.module, PYTHON.wrong)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    assert errors == []
    assert sorted((r.passed, r.failed) for r in results) == [(1, 2), (3, 0)]
    assert len(client.calls) == 2
    record = client.calls[0]
    assert record.tool == "run_tests" and record.ok and record.duration_s > 0
    assert set(record.arguments) == {"files", "tests"}


@pytest.mark.docker
def test_configured_language_served_through_the_config(docker_daemon: None) -> None:
    """A language added in codeproof.toml (here: a second name for the Python server)."""
    command = [sys.executable, "-m", "codeproof", "mcp", "toolchain", "python"]
    settings = load_settings(
        toolchains={"python-docker": {"command": [*command, "--sandbox", "docker"]}}
    )
    with open_toolchain(settings, "python-docker") as client:
        report = client.run_tests(PYTHON.module, PYTHON.tests)
        run = client.run({"greet.py": "import sys\nprint('hi', sys.argv[1], input())\n"},
                         ["greet.py", "bob"], stdin="ann\n")  # fmt: skip
    assert (report.total, report.passed) == (3, 3)
    assert (run.exit_code, run.stdout) == (0, "hi bob ann\n")
