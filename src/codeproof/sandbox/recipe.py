"""What goes into one sandbox image (a leaf: language packages declare their recipe).

The offline build (:mod:`codeproof.sandbox.images`) debootstraps a Debian tree from a
recipe; a recipe's digest decides whether an existing tree or image is up to date.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field

SUITE = "bookworm"
#: Bump when the build steps change in a way that changes the result.
BUILD_STEPS_VERSION = 3


@dataclass(frozen=True)
class Recipe:
    """What goes into one language image."""

    language: str
    packages: tuple[str, ...]
    wheels: tuple[str, ...] = ()
    official_base: str = ""
    official_setup: tuple[str, ...] = field(default_factory=tuple)
    virtual_headroom: int = field(default=0, compare=False)
    """Extra address space the bubblewrap backend allows beyond the memory limit (a JIT
    or a JVM reserves far more virtual memory than it uses)."""

    @property
    def digest(self) -> str:
        """Short hash of the recipe and build steps; equal hash = equal image."""
        recipe = {k: v for k, v in asdict(self).items() if k != "virtual_headroom"}
        blob = json.dumps({"recipe": recipe, "steps": BUILD_STEPS_VERSION, "suite": SUITE})
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    @property
    def image(self) -> str:
        """Docker image name (tag ``latest``)."""
        return f"codeproof-{self.language}"
