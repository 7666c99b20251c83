"""Backend selection, limits, sizes, recipes, reaping tags and doctor checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from codeproof.core.config import Settings, load_settings
from codeproof.core.errors import ConfigError, InputError, SandboxUnavailableError
from codeproof.sandbox import checks, images
from codeproof.sandbox._common import BoundedBuffer, files_to_tar, parse_size
from codeproof.sandbox.bwrap_backend import BubblewrapSandbox
from codeproof.sandbox.docker_backend import DockerSandbox
from codeproof.sandbox.local_backend import UnsafeLocalSandbox
from codeproof.sandbox.procs import owner_alive, owner_tag
from codeproof.sandbox.registry import BACKENDS, get_sandbox, limits_from_settings, open_session


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(home=tmp_path)


def _force(monkeypatch: pytest.MonkeyPatch, usable: dict[str, bool]) -> None:
    for name, ok in usable.items():
        cls = BACKENDS[name]
        monkeypatch.setattr(cls, "available", lambda self, ok=ok: ok)
        monkeypatch.setattr(cls, "can_serve", lambda self, language, ok=ok: ok)


def test_auto_prefers_docker(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    _force(monkeypatch, {"docker": True, "bubblewrap": True})
    assert isinstance(get_sandbox(settings, language="python"), DockerSandbox)


def test_auto_falls_back_to_bubblewrap(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    _force(monkeypatch, {"docker": False, "bubblewrap": True})
    assert isinstance(get_sandbox(settings, "auto", "python"), BubblewrapSandbox)


def test_auto_refuses_with_a_fix_and_never_picks_unsafe(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    _force(monkeypatch, {"docker": False, "bubblewrap": False})
    with pytest.raises(SandboxUnavailableError) as info:
        get_sandbox(settings)
    assert info.value.hint and "unsafe-local" in info.value.hint


def test_explicit_backend_must_be_available(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    _force(monkeypatch, {"docker": False})
    with pytest.raises(SandboxUnavailableError):
        get_sandbox(settings, "docker")
    assert isinstance(get_sandbox(settings, "unsafe-local"), UnsafeLocalSandbox)


def test_unknown_backend_is_a_config_error(settings: Settings) -> None:
    with pytest.raises(ConfigError):
        get_sandbox(settings, "vm")


def test_open_session_closes_on_exception(settings: Settings) -> None:
    with (
        pytest.raises(KeyError),
        open_session(settings, "python", backend="unsafe-local") as box,
    ):
        box.put_files({"a.txt": "x"})
        raise KeyError("boom")
    assert box.read_file.__self__._dir is None  # type: ignore[attr-defined]


def test_limits_from_settings() -> None:
    settings = load_settings(sandbox={"memory": "256m", "disk": "1g", "timeout_s": 7, "pids": 9})
    limits = limits_from_settings(settings)
    assert limits.memory_bytes == 256 * 1024**2
    assert limits.disk_bytes == 1024**3
    assert (limits.timeout_s, limits.pids) == (7, 9)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("512m", 512 * 1024**2), ("1G", 1024**3), ("300k", 300 * 1024), ("42", 42), ("2MiB", 2 << 20)],
)
def test_parse_size(text: str, expected: int) -> None:
    assert parse_size(text) == expected


@pytest.mark.parametrize("text", ["", "lots", "-1m", "5x"])
def test_parse_size_rejects_garbage(text: str) -> None:
    with pytest.raises(ConfigError):
        parse_size(text)


def test_bounded_buffer_counts_what_it_drops() -> None:
    buffer = BoundedBuffer(5)
    for chunk in (b"abc", b"defg", b"hi"):
        buffer.feed(chunk)
    assert (buffer.data(), buffer.dropped, buffer.truncated) == (b"abcde", 4, True)


def test_files_to_tar_owner_and_modes() -> None:
    import io
    import tarfile

    blob = files_to_tar({"a/b.sh": "#!/bin/sh\n", "c.txt": b"x"}, uid=1000)
    with tarfile.open(fileobj=io.BytesIO(blob)) as archive:
        members = {m.name: m for m in archive.getmembers()}
    assert members["a/b.sh"].mode == 0o755 and members["c.txt"].mode == 0o644
    assert {m.uid for m in members.values()} == {1000}


def test_owner_tags_detect_dead_processes() -> None:
    assert owner_alive(owner_tag())
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    tag = owner_tag(proc.pid)
    proc.wait()
    assert not owner_alive(tag)
    assert not owner_alive(f"{os.getpid()}:0")  # same pid, other start time
    assert not owner_alive("garbage")


def test_recipes_cover_every_language_and_hash_is_stable() -> None:
    from codeproof.languages import registry

    recipes = images.image_recipes()
    assert set(recipes) == {language.image.language for language in registry.languages()}
    digests = {r.digest for r in recipes.values()}
    assert len(digests) == len(recipes)
    assert images.recipe_for("python").digest == recipes["python"].digest
    # a language name or alias gives its image; an unknown one is a user error
    assert images.image_for("javascript") == images.image_for("js") == "node"
    with pytest.raises(InputError, match="unknown language 'cobol'"):
        images.image_for("cobol")


def test_mirror_prefers_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    configured = load_settings(sandbox={"debian_mirror": "http://mirror.invalid/debian"})
    assert images.debian_mirror(configured) == "http://mirror.invalid/debian"
    monkeypatch.setattr(images, "_apt_uris", lambda etc_apt: iter([]))
    with pytest.raises(SandboxUnavailableError):
        images.debian_mirror(load_settings())


def test_mirror_is_read_from_apt_sources_of_the_suite(tmp_path: Path) -> None:
    (tmp_path / "sources.list.d").mkdir()
    (tmp_path / "sources.list.d" / "a-vendor.sources").write_text(
        "Types: deb\nURIs: http://vendor.invalid/node\nSuites: nodistro\nComponents: main\n"
    )
    (tmp_path / "sources.list.d" / "debian.sources").write_text(
        "Types: deb\n# comment\nURIs: http://main.invalid/debian\n"
        "Suites: bookworm bookworm-updates\n"
        "Components: main\n\n"
        "Types: deb\nURIs: http://main.invalid/debian-security\nSuites: bookworm-security\n"
    )
    (tmp_path / "sources.list").write_text(
        "# deb http://old.invalid/debian bookworm main\n"
        "deb [arch=amd64] http://legacy.invalid/debian bookworm main\n"
        "deb http://legacy.invalid/debian-security bookworm-security main\n"
    )
    assert list(images._apt_uris(tmp_path)) == [
        "http://main.invalid/debian",
        "http://legacy.invalid/debian",
    ]


def test_unready_tree_is_detected(settings: Settings) -> None:
    assert not images.rootfs_ready(settings, "python")
    stamp = images.images_dir(settings) / "python" / "recipe.json"
    stamp.parent.mkdir(parents=True)
    stamp.write_text('{"digest": "stale"}')
    assert not images.rootfs_ready(settings, "python")


def test_doctor_docker_is_only_a_warning_when_bwrap_works(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checks, "connect", lambda timeout_s=5: None)
    monkeypatch.setattr(checks, "bwrap_works", lambda: True)
    result = checks.check_docker(settings)
    assert (result.ok, result.required) == (False, False)
    assert result.fix
    monkeypatch.setattr(checks, "bwrap_works", lambda: False)
    assert checks.check_docker(settings).required
    assert checks.check_bubblewrap(settings).required


def test_doctor_reports_missing_images_with_a_fix(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checks, "connect", lambda timeout_s=5: None)
    result = checks.check_sandbox_images(settings)
    assert not result.ok
    assert result.fix and "codeproof sandbox build" in result.fix


def test_official_dockerfile_carries_the_recipe() -> None:
    from codeproof.sandbox.docker_images import _dockerfile

    recipe = images.recipe_for("java")
    text = _dockerfile(recipe)
    assert text.startswith(f"FROM {recipe.official_base}\n")
    assert f"codeproof.recipe={recipe.digest}" in text
    assert "junit5" in text and 'CMD ["sleep", "infinity"]' in text


def test_official_build_failure_is_unavailable_with_a_fix(settings: Settings) -> None:
    import docker.errors

    from codeproof.sandbox.docker_images import ensure_image

    class Images:
        def get(self, name: str) -> object:
            raise docker.errors.ImageNotFound("absent")

        def build(self, **kwargs: object) -> object:
            raise docker.errors.APIError("registry unreachable")

    class Client:
        images = Images()

    with pytest.raises(SandboxUnavailableError) as info:
        ensure_image(settings, Client(), "node", source="official")
    assert info.value.hint and "--source debian" in info.value.hint


def test_a_daemon_socket_that_refuses_leaves_no_socket_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docker-py leaves a refused connection's socket to the garbage collector (a
    ResourceWarning in whatever test runs then); ``connect`` finds the refusal first."""
    import gc

    from codeproof.sandbox import docker_backend

    unraised: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda info: unraised.append(info.exc_value))
    monkeypatch.setattr(docker_backend, "_shared", [])
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path / 'nobody.sock'}")
    assert docker_backend.connect(timeout_s=1.0) is None
    assert not DockerSandbox(load_settings(home=tmp_path)).available()
    gc.collect()
    assert unraised == []
