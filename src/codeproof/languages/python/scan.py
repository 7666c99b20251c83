"""bandit on generated Python (``assert`` in tests is fine; everything else is reported)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from codeproof.core.errors import InputError, ScanError
from codeproof.core.reports import Finding, Severity
from codeproof.languages.python.tests import is_test_path

BANDIT_TIMEOUT_S = 120.0


_BANDIT_SEVERITY: dict[str, Severity] = {"LOW": "low", "MEDIUM": "medium", "HIGH": "high"}


def scan_bandit(files: Mapping[str, str]) -> list[Finding]:
    """Run bandit on the Python files (in a temporary directory, never executed).

    Raises:
        ScanError: bandit could not run or its report is unreadable.
    """
    sources = {p: c for p, c in files.items() if p.endswith(".py")}
    if not sources:
        return []
    with tempfile.TemporaryDirectory(prefix="codeproof-scan-") as tmp:
        root = Path(tmp)
        for path, content in sources.items():
            target = root / _safe_relative(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
        report = _run_bandit(root)
    return _bandit_findings(report, root)


def _safe_relative(path: str) -> PurePosixPath:
    rel = PurePosixPath(path)
    if rel.is_absolute() or ".." in rel.parts:
        raise InputError(
            f"unsafe file path {path!r}", hint="use a relative path inside the project"
        )
    return rel


def _run_bandit(root: Path) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "bandit", "-q", "-r", "-f", "json", "."]
    try:
        done = subprocess.run(
            cmd, cwd=root, capture_output=True, text=True, timeout=BANDIT_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ScanError(f"bandit did not run: {exc}", tool="bandit", hint=_HINT) from exc
    if done.returncode not in (0, 1):
        raise ScanError(
            f"bandit failed ({done.returncode}): {done.stderr[-300:]}", tool="bandit", hint=_HINT
        )
    try:
        report: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError as exc:
        raise ScanError("bandit printed no JSON report", tool="bandit", hint=_HINT) from exc
    return report


def _relative(filename: str, root: Path) -> str:
    path = Path(filename)
    if not path.is_absolute():
        path = root / path
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return PurePosixPath(filename).as_posix()


def _bandit_findings(report: Mapping[str, Any], root: Path) -> list[Finding]:
    out = []
    is_test = is_test_path
    for item in report.get("results", []):
        file = _relative(str(item.get("filename", "")), root)
        if item.get("test_id") == _ASSERTS_OK and is_test(file):
            continue
        out.append(
            Finding(
                tool="bandit",
                severity=_BANDIT_SEVERITY.get(str(item.get("issue_severity")), "low"),
                file=file,
                line=item.get("line_number"),
                message=f"{item.get('issue_text', '')} ({item.get('test_name', '')})",
                rule=str(item.get("test_id", "")),
            )
        )
    for error in report.get("errors", []):
        out.append(
            Finding(
                tool="bandit",
                severity="info",
                file=_relative(str(error.get("filename", "")), root),
                message=f"not analysed: {error.get('reason', 'unknown error')}",
                rule="bandit-error",
            )
        )
    return out


_HINT = "reinstall codeproof (bandit is a dependency): pip install -e ."


_ASSERTS_OK = "B101"
"""bandit's assert_used: asserts are how tests check, so it is not reported for tests."""
