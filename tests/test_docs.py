"""The documentation keeps up with the code."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from codeproof.core.config import Settings

ROOT = Path(__file__).resolve().parents[1]


def _keys(model: type[BaseModel], prefix: str = "") -> list[str]:
    keys: list[str] = []
    for name, field in model.model_fields.items():
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            keys.extend(_keys(annotation, f"{prefix}{name}."))
        else:
            keys.append(f"{prefix}{name}")
    return keys


def test_every_setting_is_documented() -> None:
    text = (ROOT / "docs" / "configuration.md").read_text()
    missing = [key for key in _keys(Settings) if f"`{key}`" not in text]
    assert not missing, f"docs/configuration.md lacks: {missing}"


def test_readme_shows_the_two_set_up_commands() -> None:
    text = (ROOT / "README.md").read_text()
    assert "make demo" in text and "make test" in text
