"""URL downloads against a local threaded HTTP server: Range resume and checksums."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from codeproof.core.errors import DownloadError, ModelIntegrityError
from codeproof.llm.download import parse_model_url
from codeproof.llm.models import ModelManager

BLOB = bytes(range(256)) * 24  # 6 KiB
SHA = hashlib.sha256(BLOB).hexdigest()


class _Files(BaseHTTPRequestHandler):
    """Serves BLOB at /m/tiny.gguf with Range support; can cut the first response."""

    cut_after: int | None = None
    ranges: list[str | None] = []  # noqa: RUF012 - shared by design, reset per test

    def do_GET(self) -> None:
        if self.path != "/m/tiny.gguf":
            self.send_error(404)
            return
        rng = self.headers.get("Range")
        type(self).ranges.append(rng)
        start = int(rng.removeprefix("bytes=").split("-")[0]) if rng else 0
        body = BLOB[start:]
        self.send_response(206 if rng else 200)
        self.send_header("Content-Length", str(len(body)))
        if rng:
            self.send_header("Content-Range", f"bytes {start}-{len(BLOB) - 1}/{len(BLOB)}")
        self.end_headers()
        cut = type(self).cut_after
        if cut is not None:
            type(self).cut_after = None
            self.wfile.write(body[:cut])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def server() -> Iterator[str]:
    _Files.cut_after = None
    _Files.ranges = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Files)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def test_parse_model_url() -> None:
    parsed = parse_model_url(f"https://h.example/a/b%20c.gguf#sha256={SHA.upper()}")
    assert parsed is not None
    assert (parsed.url, parsed.filename, parsed.sha256) == (
        "https://h.example/a/b%20c.gguf",
        "b c.gguf",
        SHA,
    )
    assert parse_model_url("qwen2.5-coder-0.5b") is None
    assert parse_model_url("/models/x.gguf") is None
    with pytest.raises(DownloadError):
        parse_model_url("https://h.example/x.gguf#md5=abc")


def test_download_verifies_and_is_then_a_noop(server: str, tmp_path: Path) -> None:
    manager = ModelManager(tmp_path)
    url = f"{server}/m/tiny.gguf#sha256={SHA}"
    path = manager.pull(url)
    assert path == tmp_path / "tiny.gguf"
    assert path.read_bytes() == BLOB
    assert manager.resolve(url) == path
    assert manager.pull(url) == path
    assert _Files.ranges == [None]  # one request only


def test_interrupted_download_resumes_with_range(server: str, tmp_path: Path) -> None:
    manager = ModelManager(tmp_path)
    url = f"{server}/m/tiny.gguf#sha256={SHA}"
    _Files.cut_after = 2000
    with pytest.raises(DownloadError) as info:
        manager.pull(url)
    assert info.value.hint is not None and "resume" in info.value.hint
    part = tmp_path / "tiny.gguf.part"
    assert part.stat().st_size == 2000
    assert manager.pull(url).read_bytes() == BLOB
    assert _Files.ranges == [None, "bytes=2000-"]
    assert not part.exists()


def test_checksum_mismatch_deletes_the_download(server: str, tmp_path: Path) -> None:
    manager = ModelManager(tmp_path)
    with pytest.raises(ModelIntegrityError, match="deleted"):
        manager.pull(f"{server}/m/tiny.gguf#sha256={'0' * 64}")
    assert list(tmp_path.iterdir()) == []


def test_http_error_is_a_download_error(server: str, tmp_path: Path) -> None:
    with pytest.raises(DownloadError, match="HTTP 404") as info:
        ModelManager(tmp_path).pull(f"{server}/m/other.gguf")
    assert info.value.url.endswith("/m/other.gguf")
