"""Ctrl-C during `codeproof new` pauses the run at once, through the real CLI and model."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codeproof.workflow.store import RunStore

pytestmark = pytest.mark.real_model


def test_ctrl_c_while_the_model_reads_the_request_pauses_the_run(
    small_model_path: Path, tmp_path: Path
) -> None:
    """The first model call runs on the main thread: before, the signal landed in the
    decoder's callback, which ignored it, and the run went on as if nothing happened.
    With --yes the first call is the analysis's, and it loads the weights: a signal
    that reached a thread of the starting server hung the start (CI waited 240 s)."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "models").symlink_to(small_model_path.parent)
    env = {
        **os.environ,
        "CODEPROOF_HOME": str(home),
        "CODEPROOF_LLM__MODEL": small_model_path.stem,
        "CODEPROOF_LLM__CACHE": "false",
    }
    request = "Write a Python function add(a, b) that returns the sum of a and b."
    command = [sys.executable, "-m", "codeproof", "new", request, "--yes", "--json"]
    with subprocess.Popen(
        [*command, "--out", str(tmp_path / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    ) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:  # the analysis has begun: the weights load, then it decodes
            if json.loads(line).get("step") == "analyze":
                break
        time.sleep(1)  # the weights load (~3 s), the prompt is read (~5 s), the reply decodes
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=240)
        except subprocess.TimeoutExpired:
            proc.kill()  # the signal was lost: the run went on
            raise
    assert proc.returncode == 130, err[-2000:]
    assert "paused (interrupted)" in err
    assert "Traceback" not in err and "Exception ignored" not in err
    with RunStore(home / "runs") as store:
        (run,) = store.list_runs()
    assert (run.status, run.reason) == ("paused", "interrupted")
    assert not (tmp_path / "out").exists()
