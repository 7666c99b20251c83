"""The web page in a real browser (Debian's Chromium through Playwright): a whole run
with the scripted model and the Docker toolchain, every question answered on the page,
screenshots taken at each step and checked."""

from __future__ import annotations

import os
import shutil
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from srv_world import ESCALATING, GOOD, engine, live_server, server_settings

from codeproof.server.state import ServerState

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.docker, pytest.mark.slow]
WAIT_MS = 120_000


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return int(width), int(height)


def next_question(page: Any) -> str:
    """The kind of the next question once the answered one is gone."""
    page.wait_for_selector("section.question", state="detached", timeout=WAIT_MS)
    page.wait_for_selector("section.question", timeout=WAIT_MS)
    return str(page.get_attribute("section.question", "data-kind"))


@pytest.fixture
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (scripts/ensure-browser.sh)")
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            chromium.close()


def test_a_whole_run_answered_on_the_page(tmp_path, browser, real_toolchains):
    shots = tmp_path / "shots"
    shots.mkdir()
    state = ServerState.build(
        engine(server_settings(tmp_path / "home"), ESCALATING, real_toolchains)
    )
    with live_server(state) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))

        def shot(name: str) -> Path:
            path = shots / f"{name}.png"
            page.screenshot(path=str(path), full_page=True)
            return path

        page.goto(url + "/")
        page.fill("textarea[name=request]", "a slugify function")
        page.select_option("select[name=lang]", "python")
        shot("1-new-request")
        page.click("#new-request button[type=submit]")
        page.wait_for_url("**/ui/threads/*")
        thread_id = page.url.rsplit("/", 1)[1]

        # the clarifying question arrives over SSE
        page.wait_for_selector("section.question[data-kind=clarify]", timeout=WAIT_MS)
        assert "Keep unicode letters?" in page.inner_text("#question")
        shot("2-clarify")
        page.fill("#answer-form textarea[name=answer]", "ASCII only")
        page.click("#answer-form button[value=answer]")
        while next_question(page) == "clarify":  # a later round: go on with the assumptions
            page.click("#answer-form button[name=proceed]")

        assert page.get_attribute("section.question", "data-kind") == "modules"
        assert page.input_value("input[name=name_0]") == "slugify"
        shot("3-modules")
        page.click("#answer-form button[type=submit]")

        # tests run in the sandbox, the module fails and escalates
        assert next_question(page) == "escalation"
        text = page.inner_text("#question")
        assert "still fails after" in text and "test_" in text
        shot("4-escalation")
        page.fill("#answer-form textarea[name=hint]", "use re.sub")
        page.click("#answer-form button[value=react]")

        page.wait_for_selector("p.done", timeout=WAIT_MS)
        progress = page.inner_text("#progress")
        assert "passed" in progress and "4/4" in progress
        shot("5-done")

        page.click("p.done a[href$='/code']")
        page.wait_for_selector("details[open] pre.diff span.add")
        assert GOOD.splitlines()[0] in page.inner_text("section.module-code")
        shot("6-code-diff")

        page.goto(f"{url}/ui/threads/{thread_id}/report")
        assert "passed" in page.inner_text("table.report")
        shot("7-report")
        assert errors == [], f"script errors on the page: {errors}"

    keep = os.environ.get("CODEPROOF_SCREENSHOTS")  # read by this test only, to look at them
    for path in sorted(shots.iterdir()):
        width, height = png_size(path)
        assert width == 1280 and height >= 400, (path.name, width, height)
        assert path.stat().st_size > 10_000, f"{path.name} looks blank"
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(keep) / path.name)
