"""Kill -9 the server mid-run and start it again: the run continues from its last
checkpoint, no completed model call is paid twice, and the client's stream goes on
from its Last-Event-ID with nothing lost or repeated."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from srv_world import GOOD

from codeproof.workflow.store import RunStore

pytestmark = [pytest.mark.docker, pytest.mark.slow]
SCRIPT = Path(__file__).with_name("srv_script.py")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(home: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, str(SCRIPT), "http", str(home), str(port), "docker", "two"],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=SCRIPT.parent,
            start_new_session=True,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()[-3000:]
        try:
            if httpx.get(f"http://127.0.0.1:{port}/ok", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError("the server did not start")


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)  # the server and the toolchain it started
    proc.wait(timeout=30)


def events_of(lines: Any, stop: Any = None) -> list[dict[str, Any]]:
    out, current = [], {}
    for line in lines:
        if line == "":
            if current:
                out.append(current)
                if stop is not None and stop(current):
                    return out
            current = {}
        elif not line.startswith(":"):
            key, _, value = line.partition(": ")
            current[key] = json.loads(value) if key == "data" else value
    return out


def test_kill_9_mid_run_then_restart(tmp_path):
    home, log = tmp_path / "home", tmp_path / "server.log"
    port = free_port()
    proc = start(home, port, log)
    url = f"http://127.0.0.1:{port}"
    body = {
        "assistant_id": "codeproof",
        "input": {"request": "slugify and kebab functions", "options": {"yes": True}},
        "stream_mode": ["updates", "custom"],
    }

    def first_test_run(event: dict[str, Any]) -> bool:
        data = event.get("data")
        return isinstance(data, dict) and (data.get("kind"), data.get("node")) == (
            "node_end",
            "execute",
        )

    try:
        tid = httpx.post(f"{url}/threads", json={}).json()["thread_id"]
        with httpx.stream("POST", f"{url}/threads/{tid}/runs/stream", json=body, timeout=120) as r:
            location = r.headers["location"]
            before = events_of(r.iter_lines(), stop=first_test_run)
        kill_group(proc)
    finally:
        if proc.poll() is None:
            kill_group(proc)
    assert proc.returncode == -signal.SIGKILL
    last_id = before[-1]["id"]
    with RunStore(home / "runs") as store:
        assert store.get_run(tid).status == "running"  # killed: nothing marked it
        paid_before = len(store.events(tid, "llm_call"))

    proc = start(home, port, log)
    try:
        again = {"Last-Event-ID": last_id}
        with httpx.stream("GET", f"{url}{location}", headers=again, timeout=180) as r:
            after = events_of(r.iter_lines())
        full = httpx.get(f"{url}{location}", timeout=60)
        report = httpx.get(f"{url}/threads/{tid}/report", timeout=30).json()
        zipped = httpx.get(f"{url}/threads/{tid}/project.zip", timeout=30)
    finally:
        kill_group(proc)

    # the stream went on from the client's last event: nothing lost, nothing twice
    ids = [int(e["id"]) for e in before + after]
    assert ids == sorted(set(ids)) and int(after[0]["id"]) > int(last_id)
    kinds = ("metadata", "updates", "custom", "end")
    everything = [int(e["id"]) for e in events_of(full.text.splitlines()) if e["event"] in kinds]
    assert ids == everything
    metadata = [e["data"]["attempt"] for e in before + after if e["event"] == "metadata"]
    assert metadata == [1, 2]
    assert after[-1]["event"] == "end" and after[-1]["data"]["status"] == "success"

    # the run continued from its checkpoint: what finished before the kill did not run again
    with RunStore(home / "runs") as store:
        starts = Counter(e.payload["node"] for e in store.events(tid, "node_start"))
        first_module = Counter(
            e.payload["node"]
            for e in store.events(tid, "node_end")
            if e.payload.get("module") == "slugify"
        )
        calls = store.events(tid, "llm_call")
    assert starts["intake"] == starts["analyze"] == starts["modules"] == 1
    # the kill lands right after the first module's test run: that step may not have
    # reached its checkpoint and runs again; the steps before it were checkpointed
    assert first_module["write_code"] == first_module["design_tests"] == 1
    assert first_module["execute"] in (1, 2)
    paid = Counter(c.payload["call_id"] for c in calls if not c.payload["replayed"])
    assert max(paid.values()) == 1, "a completed model call was paid twice"
    assert len(calls) >= paid_before
    # both modules' tests pass; kebab's two tests are a weak proof unless the proof's
    # checks make up for them (its mutation analysis is time-boxed: the load decides)
    statuses = [(m["name"], m["status"]) for m in report["modules"]]
    assert statuses in (
        [("slugify", "passed"), ("kebab", "passed")],
        [("slugify", "passed"), ("kebab", "weak")],
    )
    archive = zipfile.ZipFile(io.BytesIO(zipped.content))
    assert archive.read("slugify.py").decode() == GOOD
