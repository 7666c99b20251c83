"""``codeproof sandbox run|build|clean``."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Annotated, cast

import typer
from rich.console import Console

from codeproof.core.config import load_settings
from codeproof.core.errors import InputError, SandboxUnavailableError
from codeproof.languages import registry
from codeproof.sandbox.bwrap_backend import reap_leftovers
from codeproof.sandbox.docker_backend import connect, remove_all_containers
from codeproof.sandbox.docker_images import Source, ensure_image, remove_images
from codeproof.sandbox.images import (
    build_rootfs,
    can_build_rootfs,
    image_for,
    image_names,
    images_dir,
)
from codeproof.sandbox.registry import limits_from_settings, open_session

sandbox_app = typer.Typer(help="Run code in a sandbox; build and clean its images.")
err_console = Console(stderr=True)


def _read_workdir(workdir: Path, max_bytes: int) -> dict[str, bytes]:
    if not workdir.is_dir():
        raise InputError(f"{workdir} is not a directory", hint="pass an existing --workdir")
    files: dict[str, bytes] = {}
    total = 0
    for path in sorted(workdir.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        data = path.read_bytes()
        total += len(data)
        if total > max_bytes:
            raise InputError(
                f"{workdir} holds more than the sandbox disk limit ({max_bytes} bytes)",
                hint="raise sandbox.disk or copy fewer files",
            )
        files[path.relative_to(workdir).as_posix()] = data
    return files


@sandbox_app.command(
    "run", context_settings={"allow_interspersed_args": False}, no_args_is_help=True
)
def run(
    command: Annotated[list[str], typer.Argument(help="Command and arguments (after --).")],
    lang: Annotated[
        str, typer.Option("--lang", help="Language (or image name); default: the default language.")
    ] = "",
    timeout: Annotated[float | None, typer.Option(help="Wall-clock limit in seconds.")] = None,
    memory: Annotated[str | None, typer.Option(help="Memory limit, e.g. 256m.")] = None,
    workdir: Annotated[
        Path | None, typer.Option(help="Directory copied into the workspace.")
    ] = None,
    sandbox: Annotated[
        str | None, typer.Option("--sandbox", help="docker, bubblewrap or unsafe-local.")
    ] = None,
) -> None:
    """Run CMD in a fresh sandbox and print the result as one JSON object."""
    image = image_for(lang or registry.default().name)
    settings = load_settings(sandbox={"timeout_s": timeout, "memory": memory, "backend": sandbox})
    limits = limits_from_settings(settings)
    files = _read_workdir(workdir, limits.disk_bytes) if workdir else {}
    with open_session(settings, image, limits) as session:
        if files:
            session.put_files(files)
        result = session.run(command)
    if result.unsafe:
        err_console.print("[bold red]warning:[/] ran WITHOUT a sandbox (unsafe-local)")
    fields = ("exit_code", "timed_out", "oom_killed", "stdout", "stderr", "truncated")
    payload = {key: getattr(result, key) for key in fields}
    payload |= {"duration_s": result.duration_s, "backend": result.backend}
    if result.unsafe:
        payload["unsafe"] = True
    typer.echo(json.dumps(payload))


@sandbox_app.command("build")
def build(
    lang: Annotated[
        list[str] | None, typer.Option("--lang", help="Language (repeatable; default all).")
    ] = None,
    source: Annotated[
        str, typer.Option(help="auto, debian (offline debootstrap) or official (registry).")
    ] = "auto",
    force: Annotated[bool, typer.Option(help="Rebuild even when up to date.")] = False,
) -> None:
    """Build the language trees and Docker images (skipped when the recipe is unchanged)."""
    settings = load_settings()
    languages = [image_for(name) for name in lang] if lang else image_names()
    if source not in ("auto", "debian", "official"):
        raise InputError(f"unknown source {source!r}", hint="use auto, debian or official")
    typed_source = cast(Source, source)
    client = connect()
    if client is None and not can_build_rootfs():
        raise SandboxUnavailableError(
            "no Docker daemon answers and debootstrap cannot run here",
            backend="images",
            hint="run `bash scripts/ensure-sandbox.sh` as root, then retry",
        )
    for language in languages:
        started = time.monotonic()
        if client is not None:
            outcome = ensure_image(settings, client, language, source=typed_source, force=force)
        else:
            build_rootfs(settings, language, force=force)
            outcome = "tree ready (no Docker daemon: bubblewrap only)"
        err_console.print(f"{language}: {outcome} ({time.monotonic() - started:.0f} s)")


@sandbox_app.command("clean")
def clean(
    images: Annotated[bool, typer.Option(help="Also remove images and language trees.")] = False,
) -> None:
    """Remove sandbox containers and leftover workspaces (and images with --images)."""
    settings = load_settings()
    client = connect()
    if client is not None:
        removed = remove_all_containers(client)
        err_console.print(f"removed {len(removed)} container(s)")
        if images:
            err_console.print(f"removed images: {', '.join(remove_images(client)) or 'none'}")
    err_console.print(f"removed {len(reap_leftovers())} leftover bubblewrap workspace(s)")
    if images and images_dir(settings).exists():
        shutil.rmtree(images_dir(settings))
        err_console.print(f"removed the language trees in {images_dir(settings)}")


def register(app: typer.Typer) -> None:
    app.add_typer(sandbox_app, name="sandbox")
