"""Docker images of the sandbox: import of the Debian tree, or official base images."""

from __future__ import annotations

import io
import logging
import time
from typing import Any, Literal

import docker
import docker.errors

from codeproof.core.config import Settings
from codeproof.core.errors import SandboxUnavailableError
from codeproof.sandbox.images import (
    KEEPER_UID,
    RECIPE_LABEL,
    SANDBOX_PATH,
    SANDBOX_UID,
    WORKSPACE,
    build_rootfs,
    can_build_rootfs,
    recipe_for,
    rootfs_ready,
    tar_stream,
)
from codeproof.sandbox.recipe import Recipe

logger = logging.getLogger(__name__)

Source = Literal["auto", "debian", "official"]
IMAGE_LABEL = "codeproof.image"


def image_digest(client: Any, recipe: Recipe) -> str | None:
    """Recipe hash of the existing image of ``recipe``, or ``None`` when absent."""
    try:
        image = client.images.get(recipe.image)
    except docker.errors.ImageNotFound:
        return None
    except docker.errors.APIError as exc:
        raise SandboxUnavailableError(
            f"cannot inspect image {recipe.image}: {exc.explanation}", backend="docker"
        ) from exc
    labels = image.labels or {}
    return str(labels.get(RECIPE_LABEL, ""))


def image_ready(client: Any, language: str) -> bool:
    """Whether ``codeproof-<language>`` exists and matches its recipe."""
    recipe = recipe_for(language)
    return image_digest(client, recipe) == recipe.digest


def can_build_image(settings: Settings, language: str) -> bool:
    """Whether an image for ``language`` exists or can be built here without a registry."""
    return rootfs_ready(settings, language) or can_build_rootfs()


def _changes(recipe: Recipe) -> list[str]:
    return [
        f"LABEL {IMAGE_LABEL}={recipe.language} {RECIPE_LABEL}={recipe.digest}",
        f"ENV PATH={SANDBOX_PATH}",
        "ENV LANG=C.UTF-8",
        f"WORKDIR {WORKSPACE}",
        f"USER {KEEPER_UID}:{KEEPER_UID}",
        'CMD ["sleep", "infinity"]',
    ]


def ensure_image(
    settings: Settings,
    client: Any,
    language: str,
    *,
    source: Source = "auto",
    force: bool = False,
) -> str:
    """Build ``codeproof-<language>`` unless an image with the same recipe hash exists.

    Args:
        settings: Where the Debian trees live.
        client: A ``docker.DockerClient``.
        language: An image name (:func:`codeproof.sandbox.images.image_names`).
        source: ``debian`` (debootstrap + import, offline), ``official`` (official
            images from a registry) or ``auto`` (debian when possible, else official).
        force: Rebuild even when the hash matches.

    Returns:
        What was done: ``"cached"``, ``"imported"`` or ``"built"``.

    Raises:
        SandboxUnavailableError: The build failed.
    """
    recipe = recipe_for(language)
    if not force and image_digest(client, recipe) == recipe.digest:
        return "cached"
    if source == "auto":
        source = "debian" if can_build_image(settings, language) else "official"
    started = time.monotonic()
    if source == "debian":
        _import_rootfs(settings, client, recipe, force=force)
        outcome = "imported"
    else:
        _build_official(client, recipe)
        outcome = "built"
    logger.info("image %s %s in %.0f s", recipe.image, outcome, time.monotonic() - started)
    return outcome


def _import_rootfs(settings: Settings, client: Any, recipe: Recipe, *, force: bool) -> None:
    tree = build_rootfs(settings, recipe.language, force=force)
    tar = tar_stream(tree)
    try:
        client.api.import_image_from_stream(
            tar.stdout, repository=recipe.image, tag="latest", changes=_changes(recipe)
        )
    except docker.errors.APIError as exc:
        raise SandboxUnavailableError(
            f"docker import of {recipe.image} failed: {exc.explanation}", backend="docker"
        ) from exc
    finally:
        tar.kill()
        tar.wait()


def _dockerfile(recipe: Recipe) -> str:
    lines = [f"FROM {recipe.official_base}"]
    lines += [f"RUN {step}" for step in recipe.official_setup]
    lines += [
        f"RUN mkdir -p {WORKSPACE} && chown {SANDBOX_UID}:{SANDBOX_UID} {WORKSPACE}",
        *_changes(recipe),
    ]
    return "\n".join(lines) + "\n"


def _build_official(client: Any, recipe: Recipe) -> None:
    dockerfile = io.BytesIO(_dockerfile(recipe).encode())
    try:
        client.images.build(fileobj=dockerfile, tag=f"{recipe.image}:latest", rm=True, pull=True)
    except (docker.errors.BuildError, docker.errors.APIError) as exc:
        raise SandboxUnavailableError(
            f"building {recipe.image} from {recipe.official_base} failed: {exc}",
            backend="docker",
            hint="without a container registry, build offline as root: "
            "`codeproof sandbox build --source debian` (needs debootstrap)",
        ) from exc


def remove_images(client: Any) -> list[str]:
    """Remove every ``codeproof-<lang>`` image; returns the removed names."""
    removed = []
    for image in client.images.list(filters={"label": IMAGE_LABEL}):
        for tag in image.tags or [image.id]:
            try:
                client.images.remove(tag, force=True)
                removed.append(tag)
            except docker.errors.ImageNotFound:
                continue
    return removed
