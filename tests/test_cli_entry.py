"""The CLI as a user meets it: help, version, and user errors without tracebacks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _codeproof(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codeproof", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )


def test_help_lists_every_command_with_one_line_help() -> None:
    result = _codeproof("--help")
    assert result.returncode == 0
    for command in ("doctor", "ask", "models", "sandbox", "mcp", "new", "runs", "resume", "eval"):
        assert f" {command} " in result.stdout, command


def test_version() -> None:
    result = _codeproof("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("codeproof ")


def test_bad_configuration_is_one_clear_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "codeproof.toml").write_text('[sandbox]\nbackend = "chroot"\n')
    result = _codeproof("models", "list", cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "error:" in result.stderr and "sandbox.backend" in result.stderr
    assert "fix:" in result.stderr


def test_unknown_command_is_a_usage_error() -> None:
    result = _codeproof("frobnicate")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_error_text_in_brackets_is_printed_verbatim(tmp_path: Path) -> None:
    (tmp_path / "codeproof.toml").write_text(
        '[llm]\nprovider = "openai"\nbase_url = "http://127.0.0.1:9/v1"\nmax_retries = 0\n'
    )
    result = _codeproof("ask", "hi", "--no-cache", cwd=tmp_path)
    assert result.returncode == 1
    assert "[openai]" in result.stderr
    assert "Traceback" not in result.stderr
