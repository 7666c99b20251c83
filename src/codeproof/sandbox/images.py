"""Language root filesystems and Docker images of the sandbox.

One recipe per language (Debian packages + optional wheels). The offline build
debootstraps a Debian minbase tree under ``settings.home / "images" / <lang>``; the
bubblewrap backend uses that tree as its read-only ``/`` and the Docker backend
imports it as the image ``codeproof-<lang>``. Both therefore run identical
toolchains. A build is skipped when the recipe hash of the existing tree/image
matches, and it is atomic (temporary directory + rename) under a file lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from codeproof.core.config import Settings
from codeproof.core.errors import InputError, SandboxError, SandboxUnavailableError
from codeproof.languages import registry
from codeproof.sandbox.recipe import SUITE, Recipe

logger = logging.getLogger(__name__)

SANDBOX_UID = 1000
KEEPER_UID = 1001
WORKSPACE = "/workspace"
SANDBOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
LABEL = "codeproof.sandbox"
RECIPE_LABEL = "codeproof.recipe"
_TRIM = ("usr/share/doc", "usr/share/man", "usr/share/info", "usr/share/locale")


def image_recipes() -> dict[str, Recipe]:
    """Every sandbox image, by name: one per registered language."""
    return {
        language.image.language: language.image
        for language in registry.languages()
        if language.image is not None
    }


def image_names() -> list[str]:
    """The names of every sandbox image."""
    return list(image_recipes())


def image_for(text: str) -> str:
    """The image named ``text``, or the image of the language named ``text`` (aliases
    accepted: ``javascript`` and ``js`` give the Node image).

    Raises:
        InputError: Neither an image nor a language of that name is known.
    """
    if text in image_recipes():
        return text
    language = registry.find(text)
    if language is None or language.image is None:
        known = sorted({*image_names(), *(lang.name for lang in registry.BUILTIN)})
        raise InputError(f"unknown language {text!r}", hint=f"use one of: {', '.join(known)}")
    return language.image.language


def recipe_for(language: str) -> Recipe:
    """The recipe of the image ``language`` (a language's image name, e.g. ``node``).

    Raises:
        SandboxError: Unknown language.
    """
    recipes = image_recipes()
    try:
        return recipes[language]
    except KeyError:
        raise SandboxError(
            f"no sandbox image {language!r}",
            backend="images",
            hint=f"use one of: {', '.join(recipes)}",
        ) from None


def images_dir(settings: Settings) -> Path:
    """Root of the language trees."""
    return settings.home / "images"


def rootfs_path(settings: Settings, language: str) -> Path:
    """The root filesystem of ``language`` (may not exist yet)."""
    return images_dir(settings) / language / "rootfs"


def rootfs_ready(settings: Settings, language: str) -> bool:
    """Whether the tree of ``language`` exists and matches its recipe."""
    stamp = images_dir(settings) / language / "recipe.json"
    try:
        return bool(json.loads(stamp.read_text()).get("digest") == recipe_for(language).digest)
    except (OSError, ValueError):
        return False


def can_build_rootfs() -> bool:
    """Whether this process can debootstrap (root + debootstrap installed)."""
    return os.geteuid() == 0 and shutil.which("debootstrap") is not None


def debian_mirror(settings: Settings) -> str:
    """The Debian mirror: ``sandbox.debian_mirror`` or the host's apt configuration.

    The first apt source serving the suite ``bookworm`` itself (not ``-security`` or
    ``-updates``) wins: deb822 stanzas in ``/etc/apt/sources.list.d/*.sources``, then
    ``deb`` lines of ``/etc/apt/sources.list``.

    Raises:
        SandboxUnavailableError: No mirror configured anywhere.
    """
    if settings.sandbox.debian_mirror:
        return settings.sandbox.debian_mirror
    for uri in _apt_uris(Path("/etc/apt")):
        return uri
    raise SandboxUnavailableError(
        f"no apt source for Debian {SUITE} found in the apt configuration",
        backend="images",
        hint="set sandbox.debian_mirror in codeproof.toml (a Debian archive URL)",
    )


def _apt_uris(etc_apt: Path) -> Iterator[str]:
    """URIs of apt sources whose suites include :data:`SUITE`."""
    sources = etc_apt / "sources.list.d"
    for path in sorted(sources.glob("*.sources")) if sources.is_dir() else []:
        for stanza in re.split(r"\n\s*\n", path.read_text(errors="replace")):
            fields = dict(
                (key.strip().lower(), value.split())
                for key, _, value in (line.partition(":") for line in stanza.splitlines())
                if value and not key.startswith((" ", "#"))
            )
            if SUITE in fields.get("suites", []) and "deb" in fields.get("types", []):
                yield from fields.get("uris", [])
    legacy = etc_apt / "sources.list"
    if legacy.is_file():
        for line in legacy.read_text(errors="replace").splitlines():
            match = re.match(r"\s*deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)", line)
            if match and match.group(2) == SUITE:
                yield match.group(1)


@contextlib.contextmanager
def _build_lock(settings: Settings, language: str) -> Iterator[None]:
    images_dir(settings).mkdir(parents=True, exist_ok=True)
    with open(images_dir(settings) / f".{language}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def build_rootfs(settings: Settings, language: str, *, force: bool = False) -> Path:
    """Build (or reuse) the root filesystem of ``language``; returns its path.

    Raises:
        SandboxUnavailableError: Not root, debootstrap missing, or the build failed.
    """
    recipe = recipe_for(language)
    with _build_lock(settings, language):
        if rootfs_ready(settings, language) and not force:
            logger.info("rootfs %s is up to date (%s)", language, recipe.digest)
            return rootfs_path(settings, language)
        if not can_build_rootfs():
            raise SandboxUnavailableError(
                f"cannot build the {language} root filesystem (needs root and debootstrap)",
                backend="images",
                hint="run `sudo codeproof sandbox build` (apt-get install debootstrap)",
            )
        started = time.monotonic()
        work = Path(tempfile.mkdtemp(prefix=f".{language}-", dir=images_dir(settings)))
        try:
            staging = work / language
            tree = staging / "rootfs"
            tree.mkdir(parents=True)
            _debootstrap(settings, recipe, tree)
            _install_wheels(recipe, tree)
            _finish_tree(tree, recipe)
            stamp = {"digest": recipe.digest, "language": language, "packages": recipe.packages}
            (staging / "recipe.json").write_text(json.dumps(stamp))
            _swap_into_place(staging, images_dir(settings) / language, work / "old")
        finally:
            shutil.rmtree(work, ignore_errors=True)
        logger.info("built rootfs %s in %.0f s", language, time.monotonic() - started)
        return rootfs_path(settings, language)


def _debootstrap(settings: Settings, recipe: Recipe, tree: Path) -> None:
    cache = settings.home / "apt-cache"
    cache.mkdir(parents=True, exist_ok=True)
    command = [
        "debootstrap",
        "--variant=minbase",
        f"--include={','.join(recipe.packages)}",
        f"--cache-dir={cache}",
        SUITE,
        str(tree),
        debian_mirror(settings),
    ]
    logger.info("debootstrap %s: %s", recipe.language, " ".join(recipe.packages))
    _check_call(command, what=f"debootstrap of {recipe.language}")


def _install_wheels(recipe: Recipe, tree: Path) -> None:
    if not recipe.wheels:
        return
    with tempfile.TemporaryDirectory() as target:
        command = [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--python-version=3.11",
            "--implementation=cp",
            f"--platform=manylinux2014_{platform.machine()}",
            f"--target={target}",
            *recipe.wheels,
        ]
        _check_call(command, what=f"wheels {' '.join(recipe.wheels)}")
        site = tree / "usr/local/lib/python3.11/dist-packages"
        bindir = tree / "usr/local/bin"
        site.mkdir(parents=True, exist_ok=True)
        bindir.mkdir(parents=True, exist_ok=True)
        for entry in Path(target).iterdir():
            dest = bindir if entry.name == "bin" else site
            if entry.name == "bin":
                for script in entry.iterdir():
                    shutil.move(str(script), bindir / script.name)
            else:
                shutil.move(str(entry), dest / entry.name)


def _finish_tree(tree: Path, recipe: Recipe) -> None:
    for rel in _TRIM:
        shutil.rmtree(tree / rel, ignore_errors=True)
    for rel in ("var/cache/apt/archives", "var/lib/apt/lists"):
        for entry in (tree / rel).glob("*"):
            if entry.is_file():
                entry.unlink()
    with open(tree / "etc/passwd", "a") as passwd:
        passwd.write(
            f"sandbox:x:{SANDBOX_UID}:{SANDBOX_UID}:codeproof sandbox:{WORKSPACE}:/bin/sh\n"
        )
        passwd.write(f"keeper:x:{KEEPER_UID}:{KEEPER_UID}:codeproof keeper:/:/usr/sbin/nologin\n")
    with open(tree / "etc/group", "a") as group:
        group.write(f"sandbox:x:{SANDBOX_UID}:\nkeeper:x:{KEEPER_UID}:\n")
    workspace = tree / WORKSPACE.lstrip("/")
    workspace.mkdir(exist_ok=True)
    os.chown(workspace, SANDBOX_UID, SANDBOX_UID)
    (tree / "etc/codeproof-recipe").write_text(f"{recipe.language} {recipe.digest}\n")


def _swap_into_place(staging: Path, final: Path, old: Path) -> None:
    """Replace ``final`` by ``staging`` with two renames; ``old`` receives the previous tree."""
    if final.exists():
        final.rename(old)
    staging.rename(final)


def _check_call(command: list[str], *, what: str) -> None:
    try:
        proc = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise SandboxUnavailableError(
            f"{what} could not start: {exc}", backend="images", hint="install debootstrap"
        ) from exc
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise SandboxUnavailableError(
            f"{what} failed (exit {proc.returncode}): {' | '.join(tail)}",
            backend="images",
            hint="check the network to the Debian mirror or set sandbox.debian_mirror",
        )


def tar_stream(tree: Path) -> subprocess.Popen[bytes]:
    """A ``tar`` process streaming ``tree`` (numeric owners) on its stdout."""
    return subprocess.Popen(
        ["tar", "--numeric-owner", "-C", str(tree), "-cf", "-", "."],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
