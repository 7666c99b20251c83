"""Settings precedence: flags > env > ./codeproof.toml > user config > defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeproof.core.config import load_settings
from codeproof.core.errors import ConfigError


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    work = tmp_path / "work"
    xdg = tmp_path / "xdg"
    (xdg / "codeproof").mkdir(parents=True)
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    for name in ("CODEPROOF_LLM__MODEL", "CODEPROOF_LLM__PROVIDER", "CODEPROOF_SANDBOX__TIMEOUT_S"):
        monkeypatch.delenv(name, raising=False)
    return work, xdg / "codeproof" / "config.toml"


def test_defaults(dirs: tuple[Path, Path]) -> None:
    settings = load_settings()
    assert settings.llm.provider == "local"
    assert settings.llm.model == "qwen2.5-coder-1.5b"
    assert settings.workflow.max_attempts == 5


def test_each_source_overrides_the_one_below(
    dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    work, user = dirs
    user.write_text('[llm]\nmodel = "from-user"\nbase_url = "http://user"\n')
    assert load_settings().llm.model == "from-user"

    (work / "codeproof.toml").write_text('[llm]\nmodel = "from-project"\n')
    settings = load_settings()
    assert settings.llm.model == "from-project"
    assert settings.llm.base_url is None or settings.llm.base_url == "http://user"

    monkeypatch.setenv("CODEPROOF_LLM__MODEL", "from-env")
    assert load_settings().llm.model == "from-env"

    assert load_settings(llm={"model": "from-flag"}).llm.model == "from-flag"


def test_unset_flags_do_not_mask_lower_sources(
    dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEPROOF_LLM__PROVIDER", "openai")
    assert load_settings(llm={"provider": None, "model": None}).llm.provider == "openai"


def test_toolchains_added_by_config(dirs: tuple[Path, Path]) -> None:
    work, _ = dirs
    (work / "codeproof.toml").write_text('[toolchains.go]\ncommand = ["go-toolchain", "--stdio"]\n')
    assert load_settings().toolchains["go"].command == ["go-toolchain", "--stdio"]


def test_invalid_value_is_a_config_error_naming_the_key(dirs: tuple[Path, Path]) -> None:
    work, _ = dirs
    (work / "codeproof.toml").write_text('[sandbox]\nbackend = "chroot"\n')
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "sandbox.backend" in info.value.message
    assert info.value.hint and "codeproof.toml" in info.value.hint


def test_unknown_key_is_rejected(dirs: tuple[Path, Path]) -> None:
    work, _ = dirs
    (work / "codeproof.toml").write_text("[llm]\nmodle = 'typo'\n")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "modle" in info.value.message


def test_malformed_toml_is_a_config_error(dirs: tuple[Path, Path]) -> None:
    work, _ = dirs
    (work / "codeproof.toml").write_text("[llm\nmodel = \n")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "TOML" in (info.value.hint or "")


def test_provider_key_variable_is_used_when_api_key_is_unset(
    dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-openai-variable")
    monkeypatch.delenv("CODEPROOF_LLM__API_KEY", raising=False)
    assert load_settings(llm={"provider": "openai"}).llm.api_key == "sk-from-openai-variable"
    assert load_settings(llm={"provider": "openai", "api_key": "sk-flag"}).llm.api_key == "sk-flag"
    assert load_settings().llm.api_key is None  # the local provider takes no key
