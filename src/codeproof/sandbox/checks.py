"""``codeproof doctor`` checks of the sandbox: Docker, bubblewrap, images."""

from __future__ import annotations

from codeproof.core.checks import CheckResult
from codeproof.core.config import Settings
from codeproof.sandbox.bwrap_backend import bwrap_works
from codeproof.sandbox.docker_backend import connect
from codeproof.sandbox.docker_images import image_ready
from codeproof.sandbox.images import image_names, rootfs_ready

_BUILD_FIX = "run `codeproof sandbox build` as root (or `make sandbox`)"


def check_docker(settings: Settings) -> CheckResult:
    """Docker daemon; only a warning when bubblewrap can stand in."""

    client = connect(timeout_s=5)
    if client is not None:
        version = client.version().get("Version", "?")
        return CheckResult("sandbox: docker", True, f"daemon answers (Docker {version})")
    return CheckResult(
        "sandbox: docker",
        False,
        "no Docker daemon answers" + ("; bubblewrap will be used" if bwrap_works() else ""),
        fix="run `bash scripts/ensure-sandbox.sh` as root (installs and starts docker.io)",
        required=not bwrap_works(),
    )


def check_bubblewrap(settings: Settings) -> CheckResult:
    """bubblewrap can create namespaces; only a warning when Docker answers."""

    if bwrap_works():
        return CheckResult("sandbox: bubblewrap", True, "bwrap creates namespaces")
    return CheckResult(
        "sandbox: bubblewrap",
        False,
        "bwrap is missing or cannot create user namespaces",
        fix="apt-get install bubblewrap; allow unprivileged user namespaces",
        required=connect(timeout_s=5) is None,
    )


def check_sandbox_images(settings: Settings) -> CheckResult:
    """Per language: the Docker image and the bubblewrap tree match their recipes."""

    client = connect(timeout_s=5)
    parts, missing = [], []
    for language in image_names():
        tree = rootfs_ready(settings, language)
        image = client is not None and image_ready(client, language)
        ready = image or (client is None and tree)
        parts.append(f"{language}: image {'ok' if image else '-'}, tree {'ok' if tree else '-'}")
        if not ready:
            missing.append(language)
    return CheckResult(
        "sandbox: images",
        not missing,
        "; ".join(parts),
        fix=f"{_BUILD_FIX} (missing: {', '.join(missing)}; built on first use otherwise)"
        if missing
        else None,
        required=False,
    )
