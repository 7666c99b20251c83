"""``codeproof serve`` as a user starts it: the real command with the local 0.5B model.
A run starts and streams; SIGTERM stops the server and leaves the run to continue at the
next start (whole runs on a real model are the workflow's e2e tests: the same runner)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import httpx
import pytest
from langgraph_sdk import get_sync_client
from test_kill9 import free_port

from codeproof.core.config import load_settings
from codeproof.server.db import ServerDB
from codeproof.server.threads import ThreadStore

pytestmark = [
    pytest.mark.slow,
    pytest.mark.real_model,
    pytest.mark.docker,
    pytest.mark.timeout(1200),
]
MODEL = "qwen2.5-coder-0.5b"


def test_codeproof_serve_with_the_small_model(tmp_path, small_model_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "models").symlink_to(load_settings().models_dir)  # the pulled weights
    port = free_port()
    env = {
        **os.environ,
        "CODEPROOF_HOME": str(home),
        "CODEPROOF_LLM__MODEL": MODEL,
        "CODEPROOF_LLM__CTX_SIZE": "8192",
        "CODEPROOF_SANDBOX__BACKEND": "docker",
        "CODEPROOF_WORKFLOW__CANDIDATES": "1",
        "CODEPROOF_WORKFLOW__MAX_ATTEMPTS": "2",
    }
    log = (tmp_path / "serve.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "codeproof", "serve", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()[-3000:]
            try:
                if httpx.get(f"{url}/ok", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "codeproof serve did not start"
                time.sleep(0.2)
        assert httpx.get(f"{url}/docs").status_code == 200
        assert "/threads/{thread_id}/runs/stream" in httpx.get(f"{url}/openapi.json").text
        with get_sync_client(url=url, api_key=None, timeout=120) as client:
            thread = client.threads.create()
            request = "Write a Python function add(a, b) that returns the sum of a and b."
            parts = client.runs.stream(
                thread["thread_id"],
                "codeproof",
                input={"request": request, "lang": "python", "options": {"yes": True}},
                stream_mode=["custom"],
            )
            first = [next(parts), next(parts)]
            assert first[0].event == "metadata"
            assert first[1].event == "custom" and first[1].data["node"] == "intake"
            [run] = client.runs.list(thread["thread_id"])
            assert run["status"] == "running"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        log.close()
    served = (tmp_path / "serve.log").read_text()
    # a graceful stop: uvicorn re-raises the SIGTERM it caught once the app has shut down
    assert proc.returncode in (0, -signal.SIGTERM), served[-3000:]
    # the run paused at its next step or, inside a model call that outlasts the wait, is left
    # for the next start (which one depends on the machine's speed); either way no traceback
    assert "Traceback" not in served, served[-3000:]
    listed = subprocess.run(
        [sys.executable, "-m", "codeproof", "runs", "list"],
        env={**env, "COLUMNS": "250"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert thread["thread_id"] in listed.stdout  # the CLI sees the server's run
    with ServerDB(home / "runs") as db:
        left = ThreadStore(db).unfinished()
    assert [r.thread_id for r in left] == [thread["thread_id"]], "it runs at the next start"
