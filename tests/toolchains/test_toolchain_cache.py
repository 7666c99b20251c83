"""The result cache: identical sandbox runs answered without a sandbox, nothing unsettled
kept, a configured server never cached; and once for real, through MCP on bubblewrap."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from toolchain_cases import PYTHON

from codeproof.core.config import Settings, load_settings
from codeproof.core.types import ProgramRun, TestReport
from codeproof.sandbox.bwrap_backend import BubblewrapSandbox
from codeproof.toolchains import client as client_module
from codeproof.toolchains.api import StartedToolchain
from codeproof.toolchains.cache import (
    CachedToolchain,
    ResultCache,
    cached_toolchains,
    identity,
    tree_digest,
)
from codeproof.toolchains.client import started_toolchains
from codeproof.toolchains.memory import MemoryToolchain, ToolRequest

FILES = {"calc.py": "def add(a, b):\n    return a + b\n"}
TESTS = {"test_calc.py": "from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n"}


class Counting:
    """A memory toolchain whose answers a test sets, and how often it was started."""

    def __init__(self) -> None:
        self.report = TestReport(total=1, passed=1, duration_s=0.5)
        self.program = ProgramRun(exit_code=0, stdout="3\n", stderr="", duration_s=0.1)
        self.requests: list[ToolRequest] = []
        self.starts = 0

    def handle(self, request: ToolRequest) -> TestReport | ProgramRun:
        self.requests.append(request)
        return self.report if request.tool == "run_tests" else self.program

    def start(self) -> StartedToolchain:
        self.starts += 1
        return MemoryToolchain(self.handle, conventions="lay modules out flat")


def cached(tmp_path: Path, inner: Counting) -> CachedToolchain:
    return CachedToolchain(inner.start, ResultCache(tmp_path / "cache.sqlite3"), "id-1", 60.0)


def test_an_identical_run_is_answered_from_the_cache_without_a_start(tmp_path: Path) -> None:
    inner = Counting()
    first = cached(tmp_path, inner)
    assert first.run_tests(FILES, TESTS) == inner.report
    assert first.run(FILES, ["calc.py"], stdin="x") == inner.program
    assert first.conventions() == "lay modules out flat"
    first.close()

    again = cached(tmp_path, inner)  # a later run: a new client on the same cache file
    assert again.run_tests(dict(FILES), dict(TESTS)) == inner.report
    assert again.run(FILES, ["calc.py"], stdin="x") == inner.program
    assert again.conventions() == "lay modules out flat"
    assert (inner.starts, len(inner.requests)) == (1, 2)  # nothing ran, nothing started
    assert [(c.tool, c.cached) for c in again.calls] == [("run_tests", True), ("run", True)]
    assert again.calls[0].result == "1 tests: 1 passed, 0 failed, 0 errors, 0 skipped"
    assert [c.cached for c in first.calls] == [False, False]


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.run_tests({"calc.py": FILES["calc.py"] + "\n"}, TESTS),
        lambda t: t.run_tests(FILES, TESTS, timeout_s=30.0),
        lambda t: t.run(FILES, ["calc.py"], stdin="y"),
        lambda t: t.run(FILES, ["calc.py", "2"], stdin="x"),
    ],
    ids=["files", "time limit", "stdin", "arguments"],
)
def test_any_difference_in_the_call_runs_it(tmp_path: Path, change) -> None:
    inner = Counting()
    toolchain = cached(tmp_path, inner)
    toolchain.run_tests(FILES, TESTS)
    toolchain.run(FILES, ["calc.py"], stdin="x")
    change(toolchain)
    assert len(inner.requests) == 3
    assert toolchain.calls[-1].cached is False


def test_a_different_toolchain_identity_shares_nothing(tmp_path: Path) -> None:
    inner = Counting()
    cache = ResultCache(tmp_path / "cache.sqlite3")
    CachedToolchain(inner.start, cache, "id-1", 60.0).run_tests(FILES, TESTS)
    CachedToolchain(inner.start, cache, "id-2", 60.0).run_tests(FILES, TESTS)
    assert len(inner.requests) == 2


@pytest.mark.parametrize(
    ("report", "kept"),
    [
        (TestReport(total=1, failed=1, duration_s=0.5), True),
        (TestReport(total=0, errors=0, message="did not compile", duration_s=0.2), True),
        (TestReport(total=1, failed=1, duration_s=2.0, timed_out=True), False),
        (TestReport(total=1, failed=1, duration_s=10.0), False),  # one test's limit (60/6)
    ],
    ids=["failing", "not compiling", "timed out", "as long as one test's limit"],
)
def test_only_settled_test_runs_are_kept(tmp_path: Path, report: TestReport, kept: bool) -> None:
    inner = Counting()
    inner.report = report
    toolchain = cached(tmp_path, inner)
    toolchain.run_tests(FILES, TESTS)
    toolchain.run_tests(FILES, TESTS)
    assert len(inner.requests) == (1 if kept else 2)


def test_a_program_run_as_long_as_one_probe_call_limit_is_not_kept(tmp_path: Path) -> None:
    inner = Counting()
    inner.program = ProgramRun(exit_code=0, stdout="", stderr="", duration_s=2.5)
    toolchain = cached(tmp_path, inner)
    toolchain.run(FILES, ["probe.py"])
    toolchain.run(FILES, ["probe.py"])
    assert len(inner.requests) == 2


def test_identity_follows_what_decides_a_result(tmp_path: Path) -> None:
    base = load_settings(home=tmp_path)
    same = load_settings(home=tmp_path, sandbox={"warm": False})
    other_limits = load_settings(home=tmp_path, sandbox={"memory": "1g"})
    assert identity(base, "py") == identity(base, "python") == identity(same, "python")
    assert identity(base, "python") != identity(other_limits, "python")
    assert identity(base, "python") != identity(base, "javascript")


def test_configured_servers_and_a_switched_off_cache_are_never_cached(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "codeproof", "mcp", "toolchain", "python"]
    configured = load_settings(home=tmp_path, toolchains={"python": {"command": command}})
    assert identity(configured, "python") is None

    inner = Counting()
    off = load_settings(home=tmp_path, sandbox={"cache": False})
    make = cached_toolchains(off, lambda language: inner.start())
    assert isinstance(make("python"), MemoryToolchain)
    assert isinstance(cached_toolchains(configured, lambda _: inner.start())("python"),
                      MemoryToolchain)  # fmt: skip


@pytest.mark.bwrap
def test_a_rerun_through_mcp_starts_no_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "images").symlink_to(load_settings().home / "images", target_is_directory=True)
    settings: Settings = load_settings(home=tmp_path, sandbox={"backend": "bubblewrap"})
    if not BubblewrapSandbox(settings).can_serve("python"):
        pytest.skip("bubblewrap cannot serve python here")
    starts: list[str] = []
    real_open = client_module.open_toolchain

    def counting_open(settings: Settings, language: str) -> client_module.ToolchainClient:
        starts.append(language)
        return real_open(settings, language)

    monkeypatch.setattr(client_module, "open_toolchain", counting_open)
    first = started_toolchains(settings)("python")
    try:
        report = first.run_tests(PYTHON.wrong, PYTHON.tests)
        conventions = first.conventions()
    finally:
        first.close()
    again = started_toolchains(settings)("python")
    assert again.run_tests(PYTHON.wrong, PYTHON.tests) == report
    assert again.conventions() == conventions
    again.close()
    assert (report.total, report.passed, report.failed) == (3, 1, 2)
    assert starts == ["python"]
    assert [c.cached for c in again.calls] == [True]


def test_the_code_digest_reads_every_file_of_the_packages_but_byte_code(tmp_path: Path) -> None:
    """A language package's runner or template in a language of its own (a ``.mjs``,
    a ``.gradle``) decides sandbox results as much as its Python does."""
    package = tmp_path / "languages" / "kotlin"
    package.mkdir(parents=True)
    (package / "runner.kts").write_text("println(1)")
    before = tree_digest(tmp_path, ["languages"])
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"\0")
    assert tree_digest(tmp_path, ["languages"]) == before
    (package / "runner.kts").write_text("println(2)")
    assert tree_digest(tmp_path, ["languages"]) != before
