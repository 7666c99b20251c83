"""Resumable, verified downloads of GGUF files over HTTP(S) with httpx.

Bytes go to ``<target>.part``; an interrupted download resumes with a ``Range``
request. When the URL carries ``#sha256=<hex>`` the finished file is checked before it
is renamed into place (a mismatch deletes it).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import httpx

from codeproof.core.errors import DownloadError, ModelIntegrityError
from codeproof.llm.integrity import record_verified

logger = logging.getLogger(__name__)

Progress = Callable[[int, int], None]
CHUNK = 1024 * 1024
_SHA = re.compile(r"^sha256=([0-9a-fA-F]{64})$")


@dataclass(frozen=True)
class ModelURL:
    """A download URL split into the fetchable URL, file name and expected sha256."""

    url: str
    filename: str
    sha256: str | None


def parse_model_url(spec: str) -> ModelURL | None:
    """Parse ``http(s)://host/path/file.gguf[#sha256=HEX]``; ``None`` if not a URL."""
    parts = urlsplit(spec)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    name = unquote(parts.path.rsplit("/", 1)[-1]) or "model.gguf"
    sha = None
    if parts.fragment:
        match = _SHA.match(parts.fragment)
        if not match:
            raise DownloadError(
                f"unsupported URL fragment {parts.fragment!r}",
                url=spec,
                hint="append #sha256=<64 hex digits> or nothing",
            )
        sha = match.group(1).lower()
    return ModelURL(parts._replace(fragment="").geturl(), name, sha)


def _hash_existing(path: Path) -> tuple[hashlib._Hash, int]:
    digest = hashlib.sha256()
    size = 0
    if path.exists():
        with path.open("rb") as fh:
            while chunk := fh.read(CHUNK):
                digest.update(chunk)
                size += len(chunk)
    return digest, size


def download(
    source: ModelURL,
    target: Path,
    *,
    progress: Progress | None = None,
    timeout_s: float = 60.0,
) -> None:
    """Download ``source`` to ``target``, resuming a previous ``.part`` file.

    Raises:
        DownloadError: Network or HTTP failure (the ``.part`` file is kept for resume).
        ModelIntegrityError: sha256 mismatch (the download is deleted).
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    digest, have = _hash_existing(part)
    headers = {"Range": f"bytes={have}-"} if have else {}
    try:
        with httpx.stream(
            "GET", source.url, headers=headers, follow_redirects=True, timeout=timeout_s
        ) as resp:
            if resp.status_code == 416 and have:
                logger.info("%s: server says the partial file is complete", source.url)
            else:
                if resp.status_code == 200 and have:
                    logger.info("%s: server ignores Range; restarting", source.url)
                    digest, have = hashlib.sha256(), 0
                resp.raise_for_status()
                total = have + int(resp.headers.get("content-length", "0") or 0)
                with part.open("ab" if have else "wb") as out:
                    for chunk in resp.iter_bytes():  # as received, so a cut keeps every byte
                        out.write(chunk)
                        digest.update(chunk)
                        have += len(chunk)
                        if progress:
                            progress(have, max(total, have))
    except httpx.HTTPStatusError as exc:
        raise DownloadError(
            f"download failed: HTTP {exc.response.status_code}",
            url=source.url,
            hint="check the URL",
        ) from exc
    except httpx.HTTPError as exc:
        raise DownloadError(
            f"download interrupted after {have} bytes: {exc.__class__.__name__}",
            url=source.url,
            hint="run the same command again to resume",
        ) from exc
    _finish(source, part, target, digest.hexdigest())


def _finish(source: ModelURL, part: Path, target: Path, actual: str) -> None:
    if source.sha256 is not None and actual != source.sha256:
        part.unlink(missing_ok=True)
        raise ModelIntegrityError(
            f"downloaded {target.name} has sha256 {actual}, expected {source.sha256}; deleted",
            path=str(target),
            hint="check the URL and its #sha256=, then download again",
        )
    os.replace(part, target)
    record_verified(target, actual)
