"""The web page without a browser: session cookie flags, CSRF, login with a token, the
answer forms, and the pages rendering."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from srv_world import ESCALATING, World, engine, server_settings

from codeproof.server.app import create_app
from codeproof.server.state import ServerState


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, "the page carries a CSRF token"
    return found.group(1)


def wait_status(client: TestClient, tid: str, status: str) -> dict[str, Any]:
    for _ in range(400):
        got: dict[str, Any] = client.get(f"/threads/{tid}").json()
        if got["status"] == status:
            return got
        import time

        time.sleep(0.02)
    raise AssertionError(f"thread {tid} never became {status}")


def test_session_cookie_flags_and_csrf(client):
    home = client.get("/")
    assert home.status_code == 200
    cookie = home.headers["set-cookie"]
    assert "codeproof_session=" in cookie and "HttpOnly" in cookie
    assert "SameSite=strict" in cookie or "SameSite=Strict" in cookie
    token = csrf_of(home.text)
    form = {"request": "a slugify function", "yes": "true"}
    refused = client.post("/ui/runs", data=form, follow_redirects=False)
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    wrong = client.post("/ui/runs", data={**form, "csrf_token": "x"}, follow_redirects=False)
    assert wrong.status_code == 403
    ok = client.post("/ui/runs", data={**form, "csrf_token": token}, follow_redirects=False)
    assert ok.status_code == 303 and ok.headers["location"].startswith("/ui/threads/")
    by_header = client.post(
        "/ui/runs", data=form, headers={"x-csrf-token": token}, follow_redirects=False
    )
    assert by_header.status_code == 303


def test_a_cookie_from_another_site_is_not_enough(client):
    client.get("/")
    token = csrf_of(client.get("/").text)
    r = client.post(
        "/ui/runs",
        data={"request": "x", "csrf_token": token},
        headers={"origin": "http://evil.example"},
    )
    assert r.status_code == 403


def test_login_with_a_token_when_auth_is_configured(tmp_path: Path):
    state = ServerState.build(engine(server_settings(tmp_path / "home"), World()))
    state.db.open()
    _, secret = state.tokens.create("me", "alice")
    with TestClient(create_app(state, mcp=False), base_url="http://127.0.0.1") as client:
        first = client.get("/", follow_redirects=False)
        assert first.status_code == 303 and first.headers["location"] == "/ui/login"
        bad = client.post("/ui/login", data={"token": "cp_nope"})
        assert bad.status_code == 401 and "unknown or revoked API token" in bad.text
        ok = client.post("/ui/login", data={"token": secret}, follow_redirects=False)
        assert ok.status_code == 303 and "HttpOnly" in ok.headers["set-cookie"]
        home = client.get("/")
        assert home.status_code == 200 and "alice" in home.text
        assert client.get("/threads/x").status_code == 401, "the cookie is not an API credential"
        token = csrf_of(home.text)
        out = client.post("/ui/logout", data={"csrf_token": token}, follow_redirects=False)
        assert out.status_code == 303
        assert client.get("/", follow_redirects=False).status_code == 303


def test_every_question_answered_through_the_forms(tmp_path: Path):
    state = ServerState.build(engine(server_settings(tmp_path / "home"), ESCALATING))
    with TestClient(create_app(state, mcp=False), base_url="http://127.0.0.1") as client:
        token = csrf_of(client.get("/").text)
        made = client.post(
            "/ui/runs",
            data={"request": "a slugify function", "csrf_token": token, "lang": "python"},
            follow_redirects=False,
        )
        tid = made.headers["location"].rsplit("/", 1)[1]
        wait_status(client, tid, "interrupted")
        page = client.get(f"/ui/threads/{tid}").text
        assert 'data-kind="clarify"' in page and "Keep unicode letters?" in page
        answer = f"/ui/threads/{tid}/answer"
        empty = client.post(answer, data={"csrf_token": token, "answer": ""})
        assert empty.status_code == 422 and "give at least one answer" in empty.text
        client.post(answer, data={"csrf_token": token, "answer": "ASCII only"})
        wait_status(client, tid, "interrupted")
        page = client.get(f"/ui/threads/{tid}").text
        assert 'data-kind="modules"' in page
        renamed = {"csrf_token": token, "keep": "0", "name_0": "slugify"}
        client.post(answer, data=renamed)
        wait_status(client, tid, "interrupted")
        page = client.get(f"/ui/threads/{tid}").text
        assert 'data-kind="escalation"' in page and "AssertionError" in page
        client.post(answer, data={"csrf_token": token, "action": "react", "hint": "use re.sub"})
        wait_status(client, tid, "idle")
        page = client.get(f"/ui/threads/{tid}").text
        assert "Project ready" in page
        code = client.get(f"/ui/threads/{tid}/code").text
        assert 'class="diff"' in code and 'class="add"' in code
        report = client.get(f"/ui/threads/{tid}/report").text
        assert "slugify" in report and "passed" in report
        assert client.get(f"/ui/threads/{tid}/download").headers["content-type"] == (
            "application/zip"
        )
