"""Benchmark data from a URL, pinned by sha256 (for users online; the default is the
local ``shared/benchmarks``).

``codeproof eval --dataset humaneval-x-js --data-url https://host/js.jsonl.gz#sha256=HEX``
downloads the file once into ``<home>/datasets/`` with the resumable, verified model
downloader, and evaluates from it. A URL without its sha256 is refused: benchmark
figures must name exactly what they ran on.
"""

from __future__ import annotations

from pathlib import Path

from codeproof.core.config import Settings
from codeproof.core.errors import InputError
from codeproof.llm.download import download, parse_model_url
from codeproof.llm.integrity import is_recorded_verified


def fetch_data_file(spec: str, settings: Settings) -> Path:
    """The local copy of the data file at ``spec`` (``URL#sha256=HEX``), downloading it
    when no verified copy exists.

    Raises:
        InputError: ``spec`` is not an http(s) URL with a sha256.
        DownloadError: The download failed.
        ModelIntegrityError: The file's sha256 differs (it is deleted).
    """
    source = parse_model_url(spec)
    if source is None:
        raise InputError(
            f"--data-url {spec!r} is not an http(s) URL",
            hint="give https://host/path/file.jsonl.gz#sha256=<64 hex digits>",
        )
    if source.sha256 is None:
        raise InputError(
            f"--data-url {spec!r} has no #sha256=",
            hint="pin the file: append #sha256=<its 64 hex digits>",
        )
    target = settings.home / "datasets" / f"{source.sha256[:16]}-{source.filename}"
    if target.is_file() and is_recorded_verified(target, source.sha256):
        return target
    download(source, target)
    return target
