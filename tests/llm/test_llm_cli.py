"""``codeproof ask`` and ``codeproof models`` as a user runs them (subprocesses)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CLI = str(Path(sys.executable).parent / "codeproof")


def _run(args: list[str], home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "CODEPROOF_HOME": str(home), "COLUMNS": "200", **env}
    return subprocess.run(
        [CLI, *args], capture_output=True, text=True, env=full_env, timeout=300, check=False
    )


def test_models_list_shows_catalogue_and_status(tmp_path: Path) -> None:
    result = _run(["models", "list"], tmp_path)
    assert result.returncode == 0, result.stderr
    for name in ("qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b"):
        assert name in result.stdout
    assert "ready" not in result.stdout  # nothing is assembled in an empty home


def test_models_path_of_a_missing_model_is_a_user_error(tmp_path: Path) -> None:
    result = _run(["models", "path", "qwen2.5-coder-0.5b"], tmp_path)
    assert result.returncode == 2
    assert "not pulled" in result.stderr
    assert "codeproof models pull qwen2.5-coder-0.5b" in result.stderr
    assert "Traceback" not in result.stderr


def test_new_without_the_model_fails_before_a_run_exists(tmp_path: Path) -> None:
    request = "Write a Python function add(a, b) that returns a + b."
    out = tmp_path / "out"
    args = ["new", request, "--yes", "--model", "qwen2.5-coder-0.5b", "--out", str(out)]
    result = _run(args, tmp_path / "home")
    assert result.returncode == 2
    assert "not pulled" in result.stderr
    assert "codeproof models pull qwen2.5-coder-0.5b" in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()
    listed = _run(["runs", "list"], tmp_path / "home")
    assert listed.returncode == 0, listed.stderr
    assert "Write a Python" not in listed.stdout


def test_models_path_prints_a_pulled_model(small_model_path: Path) -> None:
    home = small_model_path.parent.parent
    result = _run(["models", "path", "qwen2.5-coder-0.5b"], home)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(small_model_path)


@pytest.mark.real_model
@pytest.mark.slow
def test_ask_streams_then_summarises_and_second_run_is_cached(
    small_model_path: Path, tmp_path: Path
) -> None:
    args = ["ask", "Say hello.", "--model", str(small_model_path), "--max-tokens", "8"]
    env = {"CODEPROOF_LLM__CTX_SIZE": "1024", "CODEPROOF_LLM__SLOTS": "1"}
    first = _run(args, tmp_path, **env)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip()
    assert "cached=no" in first.stderr and "tok/s" in first.stderr
    second = _run(args, tmp_path, **env)
    assert second.stdout == first.stdout
    assert "cached=yes" in second.stderr
