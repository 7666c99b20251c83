"""Doctor checks of the LLM layer."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from codeproof.commands.doctor import CHECKS
from codeproof.core.config import load_settings
from codeproof.llm.checks import check_model, check_provider


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODEPROOF_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)


def test_checks_are_registered() -> None:
    assert check_model in CHECKS and check_provider in CHECKS


def test_missing_local_model_fails_with_the_pull_fix() -> None:
    result = check_model(load_settings(llm={"model": "qwen2.5-coder-0.5b"}))
    assert not result.ok
    assert result.fix == "codeproof models pull qwen2.5-coder-0.5b"


def test_pulled_model_passes(small_model_path: Path) -> None:
    settings = load_settings(
        home=small_model_path.parent.parent, llm={"model": "qwen2.5-coder-0.5b"}
    )
    result = check_model(settings)
    assert result.ok and "sha256 verified" in result.detail


def test_local_provider_check_needs_no_model_load() -> None:
    assert check_provider(load_settings()).ok


def test_unreachable_openai_endpoint_fails_with_fix() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    result = check_provider(load_settings(llm={"provider": "openai", "base_url": url}))
    assert not result.ok
    assert result.fix is not None and url in result.fix
    assert check_model(load_settings(llm={"provider": "openai"})).ok
