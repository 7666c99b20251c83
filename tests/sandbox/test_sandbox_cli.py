"""``codeproof sandbox run`` prints one JSON object and exits 0 when the command ran."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    code = "from codeproof.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120
    )


def test_run_prints_json_and_exits_zero_whatever_the_command_did(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "data.txt").write_text("payload")
    proc = _cli(
        "sandbox", "run", "--lang", "python", "--sandbox", "unsafe-local",
        "--workdir", str(tmp_path), "--timeout", "20",
        "--", "sh", "-c", "cat sub/data.txt; exit 4",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    payload = json.loads(proc.stdout)
    assert set(payload) >= {
        "exit_code", "timed_out", "oom_killed", "stdout", "stderr", "truncated",
        "duration_s", "backend",
    }  # fmt: skip
    assert (payload["exit_code"], payload["stdout"]) == (4, "payload")
    assert payload["backend"] == "unsafe-local" and payload["unsafe"] is True
    assert "WITHOUT a sandbox" in proc.stderr


def test_run_reports_timeouts(tmp_path: Path) -> None:
    proc = _cli(
        "sandbox", "run", "--sandbox", "unsafe-local", "--timeout", "1", "--", "sleep", "20"
    )  # fmt: skip
    payload = json.loads(proc.stdout)
    assert payload["timed_out"] is True and payload["duration_s"] < 3


def test_unknown_language_is_a_user_error() -> None:
    proc = _cli("sandbox", "run", "--lang", "cobol", "--", "true")
    assert proc.returncode == 2
    assert "fix:" in proc.stderr
