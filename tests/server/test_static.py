"""The vendored front-end files are the ones VENDORED.md names (versions and hashes),
htmx stays on 2.0.x, and the page loads them from /static (no CDN)."""

from __future__ import annotations

import hashlib
from importlib import resources

STATIC = resources.files("codeproof.server") / "static"


def table() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in (STATIC / "VENDORED.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip().strip("`") for c in line.strip("|").split("|")]
        if len(cells) == 6 and cells[0].endswith(".js"):
            rows[cells[0]] = cells
    return rows


def test_vendored_files_match_their_recorded_hashes():
    rows = table()
    assert set(rows) == {"htmx.min.js", "htmx-ext-sse.min.js"}
    for name, cells in rows.items():
        data = (STATIC / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == cells[5], name
    assert rows["htmx.min.js"][2].startswith("2.0.")
    assert (STATIC / "htmx.LICENSE.txt").read_text().startswith("Zero-Clause BSD")


def test_pages_use_only_local_scripts(client):
    page = client.get("/").text
    assert '<script src="/static/htmx.min.js"></script>' in page
    assert '<script src="/static/htmx-ext-sse.min.js"></script>' in page
    assert "http" not in page.split("<body", 1)[0].replace('"htmx-config"', "")
    js = client.get("/static/htmx.min.js")
    assert js.status_code == 200 and b'version:"2.0.11"' in js.content
