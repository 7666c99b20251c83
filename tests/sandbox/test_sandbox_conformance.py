"""The conformance suite every sandbox backend passes (unsafe-local included)."""

from __future__ import annotations

import logging

import pytest
from sandbox_cases import ALL, OpenSession

from codeproof.core.errors import InputError, SandboxError
from codeproof.sandbox._common import TRUNCATION_MARKER
from codeproof.sandbox.base import RunResult, SandboxSession

pytestmark = pytest.mark.parametrize("backend", ALL, indirect=True)


def test_put_run_read_round_trip(open_box: OpenSession) -> None:
    box = open_box()
    box.put_files({"pkg/data.txt": "hello", "blob.bin": b"\x00\x01\xff", "run.py": "print(2 + 3)"})
    result = box.run(["python3", "run.py"])
    assert isinstance(result, RunResult)
    assert (result.exit_code, result.stdout, result.timed_out) == (0, "5\n", False)
    assert box.read_file("pkg/data.txt") == b"hello"
    assert box.read_file("blob.bin") == b"\x00\x01\xff"
    assert box.read_file("missing.txt") is None
    assert box.read_file("pkg/data.txt", max_bytes=2) == b"he"


def test_result_files_written_by_a_run_are_read_back(open_box: OpenSession) -> None:
    box = open_box()
    box.run(["sh", "-c", "mkdir -p out && printf '<xml/>' > out/report.xml"])
    assert box.read_file("out/report.xml") == b"<xml/>"


def test_exit_code_streams_and_stdin(open_box: OpenSession, backend: str) -> None:
    box = open_box()
    result = box.run(["sh", "-c", "read x; echo out:$x; echo err >&2; exit 3"], stdin="abc\n")
    assert result.exit_code == 3
    assert result.stdout == "out:abc\n"
    assert result.stderr == "err\n"
    assert result.backend == backend
    assert result.unsafe is (backend == "unsafe-local")


def test_missing_command_is_a_result_not_an_exception(open_box: OpenSession) -> None:
    result = open_box().run(["no-such-command-xyz"])
    assert result.exit_code == 127


def test_files_persist_between_runs(open_box: OpenSession) -> None:
    box = open_box()
    box.run(["sh", "-c", "echo 1 > state"])
    assert box.run(["cat", "state"]).stdout == "1\n"


def test_timeout_sets_timed_out_at_the_limit(open_box: OpenSession) -> None:
    result = open_box().run(["sleep", "30"], timeout_s=1.5)
    assert result.timed_out
    assert 0.5 <= result.duration_s <= 2.5


def test_session_timeout_is_the_default(open_box: OpenSession) -> None:
    result = open_box(timeout_s=1.5).run(["sleep", "30"])
    assert result.timed_out
    assert not result.oom_killed


def test_empty_command_is_refused(open_box: OpenSession) -> None:
    with pytest.raises(SandboxError):
        open_box().run([])


def test_output_is_truncated_with_a_marker(open_box: OpenSession) -> None:
    box = open_box(output_bytes=1000)
    result = box.run(["python3", "-c", "print('y' * 5000)"])
    assert result.truncated
    assert result.stdout.startswith("y" * 1000)
    assert result.stdout.endswith(TRUNCATION_MARKER.format(dropped=5001 - 1000))


def test_invalid_utf8_is_replaced(open_box: OpenSession) -> None:
    script = "import sys; sys.stdout.buffer.write(b'a\\xff\\xfeb')"
    result = open_box().run(["python3", "-c", script])
    assert result.stdout == "a\ufffd\ufffdb"


@pytest.mark.parametrize("path", ["../escape.txt", "/etc/passwd", "a/../../b", ""])
def test_paths_leaving_the_workspace_are_refused(open_box: OpenSession, path: str) -> None:
    box = open_box()
    with pytest.raises(InputError):
        box.put_files({path: "x"})
    with pytest.raises(InputError):
        box.read_file(path)


def test_close_is_idempotent_and_ends_the_session(open_box: OpenSession) -> None:
    box = open_box()
    box.close()
    box.close()
    with pytest.raises(SandboxError):
        box.run(["true"])


def test_context_manager_closes_on_exception(open_box: OpenSession) -> None:
    box = open_box()
    with pytest.raises(RuntimeError), box as entered:
        assert isinstance(entered, SandboxSession)
        raise RuntimeError("boom")
    with pytest.raises(SandboxError):
        box.run(["true"])


def test_unsafe_backend_warns_on_every_run(
    open_box: OpenSession, backend: str, caplog: pytest.LogCaptureFixture
) -> None:
    box = open_box()
    with caplog.at_level(logging.WARNING, logger="codeproof.sandbox"):
        box.run(["true"])
        box.run(["true"])
    unsafe_warnings = [r for r in caplog.records if "UNSAFE" in r.getMessage()]
    assert len(unsafe_warnings) == (2 if backend == "unsafe-local" else 0)
