"""API tokens (only their sha256 stored), per-user isolation (another user's thread is a
404), loopback-only without auth, and the refusal to bind elsewhere without a token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from srv_world import World, engine, server_settings

from codeproof.server.app import create_app
from codeproof.server.db import ServerDB
from codeproof.server.state import ServerState
from codeproof.server.tokens import TokenStore, digest

START = {
    "assistant_id": "codeproof",
    "input": {"request": "a slugify function", "options": {"yes": True}},
}


def cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codeproof", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "CODEPROOF_HOME": str(home), "COLUMNS": "200"},
        timeout=120,
        check=False,
    )


def test_tokens_cli_prints_once_and_stores_only_the_hash(tmp_path):
    home = tmp_path / "home"
    created = cli(home, "tokens", "create", "laptop", "--user", "alice")
    assert created.returncode == 0, created.stderr
    secret = created.stdout.strip()
    assert secret.startswith("cp_") and len(secret) > 40
    assert "shown only now" in created.stderr
    db_bytes = b"".join(p.read_bytes() for p in (home / "runs").glob("server.sqlite3*"))
    assert secret.encode() not in db_bytes
    assert digest(secret).encode() in db_bytes
    listed = cli(home, "tokens", "list")
    assert "laptop" in listed.stdout and "alice" in listed.stdout and "active" in listed.stdout
    assert secret not in listed.stdout
    again = cli(home, "tokens", "create", "laptop")
    assert again.returncode == 2 and "a token named 'laptop' exists" in again.stderr
    assert cli(home, "tokens", "revoke", "laptop").returncode == 0
    gone = cli(home, "tokens", "revoke", "laptop")
    assert gone.returncode == 2 and "no active token 'laptop'" in gone.stderr
    assert "Traceback" not in gone.stderr
    bad = cli(home, "tokens", "create", "bad name")
    assert bad.returncode == 2 and "invalid token name" in bad.stderr


def test_serve_refuses_a_public_address_without_a_token(tmp_path):
    home = tmp_path / "home"
    refused = cli(home, "serve", "--host", "0.0.0.0", "--port", "0")
    assert refused.returncode == 2
    assert "refusing to listen on 0.0.0.0 without auth" in refused.stderr
    assert "codeproof tokens create" in refused.stderr and "Traceback" not in refused.stderr


@pytest.fixture
def two_users(tmp_path: Path) -> Any:
    state = ServerState.build(engine(server_settings(tmp_path / "home"), World()))
    state.db.open()
    _, alice = state.tokens.create("a", "alice")
    _, bob = state.tokens.create("b", "bob")
    with TestClient(create_app(state, mcp=False), base_url="http://127.0.0.1") as client:
        yield client, state, {"x-api-key": alice}, {"authorization": f"Bearer {bob}"}


def test_credentials_are_required_once_a_token_exists(two_users):
    client, state, alice, bob = two_users
    r = client.get("/threads/x")
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    assert "needs an API token" in r.json()["detail"]
    r = client.post("/threads", json={}, headers={"x-api-key": "cp_wrong"})
    assert r.status_code == 401 and "unknown or revoked" in r.json()["detail"]
    assert client.post("/threads", json={}, headers=alice).status_code == 200
    assert client.post("/threads", json={}, headers=bob).status_code == 200
    state.tokens.revoke("a")
    assert client.post("/threads", json={}, headers=alice).status_code == 401


def test_another_users_thread_is_a_404_everywhere(two_users):
    client, _, alice, bob = two_users
    tid = client.post("/threads", json={}, headers=alice).json()["thread_id"]
    run = client.post(f"/threads/{tid}/runs", json=START, headers=alice).json()
    client.get(f"/threads/{tid}/runs/{run['run_id']}/join", headers=alice)
    mine = client.get(f"/threads/{tid}/report", headers=alice)
    assert mine.status_code == 200, mine.text
    paths = [
        ("GET", f"/threads/{tid}"),
        ("GET", f"/threads/{tid}/state"),
        ("POST", f"/threads/{tid}/history"),
        ("GET", f"/threads/{tid}/runs"),
        ("GET", f"/threads/{tid}/runs/{run['run_id']}"),
        ("GET", f"/threads/{tid}/runs/{run['run_id']}/stream"),
        ("GET", f"/threads/{tid}/runs/{run['run_id']}/join"),
        ("POST", f"/threads/{tid}/runs/{run['run_id']}/cancel"),
        ("POST", f"/threads/{tid}/runs"),
        ("GET", f"/threads/{tid}/report"),
        ("GET", f"/threads/{tid}/project.zip"),
        ("DELETE", f"/threads/{tid}"),
    ]
    unknown = client.get("/threads/unknown-id", headers=bob).json()
    for method, path in paths:
        body = START if path.endswith("/runs") and method == "POST" else {}
        r = client.request(method, path, headers=bob, json=body if method == "POST" else None)
        assert r.status_code == 404, (method, path, r.text)
        assert r.json()["error"] == unknown["error"] == "NotFoundError"
    assert client.post("/threads/search", json={}, headers=bob).json() == []
    [found] = client.post("/threads/search", json={}, headers=alice).json()
    assert found["thread_id"] == tid
    assert client.get(f"/threads/{tid}", headers=alice).status_code == 200


def test_without_auth_only_loopback_host_names_are_served(client):
    assert client.post("/threads", json={}).status_code == 200
    r = client.post("/threads", json={}, headers={"host": "attacker.example:8123"})
    assert r.status_code == 403 and "not served without auth" in r.json()["detail"]
    r = client.get("/threads/x", headers={"host": "[::1]:8123"})
    assert r.status_code == 404


def test_token_store_verifies_by_hash(tmp_path):
    with ServerDB(tmp_path) as db:
        tokens = TokenStore(db)
        info, secret = tokens.create("ci")
        assert tokens.verify(secret) == "ci" and tokens.verify(secret + "x") is None
        assert tokens.any_active()
        tokens.revoke("ci")
        assert not tokens.any_active() and tokens.verify(secret) is None
        assert [t.name for t in tokens.list()] == ["ci"] and info.user == "ci"
