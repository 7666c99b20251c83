"""Security scan of generated files: bandit for Python, a secrets scan for every language.

Static analysis only: the code is never imported or executed. Results are
deterministic and sorted by file, line, tool and rule.
"""

from __future__ import annotations

import json
import logging
import math
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from codeproof.core.errors import InputError, ScanError
from codeproof.core.types import Finding, Severity
from codeproof.languages.layout import LAYOUTS

logger = logging.getLogger(__name__)

BANDIT_TIMEOUT_S = 120.0
MIN_SECRET_ENTROPY = 3.0
"""Shannon entropy (bits per character) above which a quoted password is reported."""

_HINT = "reinstall codeproof (bandit is a dependency): pip install -e ."
_ASSERTS_OK = "B101"
"""bandit's assert_used: asserts are how tests check, so it is not reported for tests."""

Scanner = Callable[[Mapping[str, str]], list[Finding]]


@dataclass(frozen=True)
class SecretRule:
    """A pattern of one kind of secret."""

    rule: str
    pattern: re.Pattern[str]
    message: str


SECRET_RULES: tuple[SecretRule, ...] = (
    SecretRule(
        "aws-access-key-id",
        re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b"),
        "AWS access key id",
    ),
    SecretRule(
        "aws-secret-access-key",
        re.compile(
            r"(?i)aws.{0,20}(?:secret|key).{0,20}?[=:]\s*[\"']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
        "AWS secret access key",
    ),
    SecretRule(
        "private-key",
        re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
        "private key block",
    ),
    SecretRule(
        "github-token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b"),
        "GitHub token",
    ),
    SecretRule(
        "openai-api-key",
        re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}\b"),
        "OpenAI API key",
    ),
    SecretRule(
        "slack-token",
        re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b"),
        "Slack token",
    ),
    SecretRule(
        "slack-webhook",
        re.compile(r"https://hooks\.slack\.com/services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/\w+"),
        "Slack webhook URL",
    ),
)

_ASSIGNED_SECRET = re.compile(
    r"(?i)\b(?P<key>[\w-]*(?:password|passwd|pwd|secret|api_?key|access_?token|auth_?token)"
    r"[\w-]*)[\"']?\s*(?::=|=|:)\s*[\"'](?P<value>[^\"'\s]{8,})[\"']"
)
_PLACEHOLDER = re.compile(
    r"(?i)^(?:x+|\*+|\.+|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|%\([^)]*\)s|.*(?:changeme|example|"
    r"placeholder|your[_-]?|dummy|redacted).*)$"
)


def entropy(text: str) -> float:
    """Shannon entropy of ``text`` in bits per character."""
    if not text:
        return 0.0
    counts = Counter(text)
    return -sum(c / len(text) * math.log2(c / len(text)) for c in counts.values())


def _redact(secret: str) -> str:
    return f"{secret[:4]}…({len(secret)} chars)"


def scan_secrets(files: Mapping[str, str]) -> list[Finding]:
    """Known token formats and high-entropy password assignments in every file."""
    findings = []
    for path, content in files.items():
        for number, line in enumerate(content.splitlines(), start=1):
            findings.extend(_secrets_in_line(path, number, line))
    return findings


def _secrets_in_line(path: str, number: int, line: str) -> list[Finding]:
    out = []
    for rule in SECRET_RULES:
        for match in rule.pattern.finditer(line):
            secret = match.group(match.lastindex or 0)
            out.append(_secret(path, number, f"{rule.message}: {_redact(secret)}", rule.rule))
    if out:
        return out
    for match in _ASSIGNED_SECRET.finditer(line):
        value = match.group("value")
        if _PLACEHOLDER.match(value) or entropy(value) < MIN_SECRET_ENTROPY:
            continue
        message = f"hard-coded secret in {match.group('key')!r}: {_redact(value)}"
        out.append(_secret(path, number, message, "hardcoded-secret"))
    return out


def _secret(path: str, line: int, message: str, rule: str) -> Finding:
    return Finding(
        tool="secrets", severity="high", file=path, line=line, message=message, rule=rule
    )


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
    is_test = LAYOUTS["python"].is_test_path
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


SCANNERS: dict[str, tuple[Scanner, ...]] = {
    "python": (scan_bandit, scan_secrets),
}
"""Language-specific scanners; languages not listed get the secrets scan only."""

DEFAULT_SCANNERS: tuple[Scanner, ...] = (scan_secrets,)


def scan_module(files: dict[str, str], language: str) -> list[Finding]:
    """Scan a module's files; findings sorted by file, line, tool and rule.

    Raises:
        ScanError: A scanner could not run.
    """
    findings = [f for scanner in SCANNERS.get(language, DEFAULT_SCANNERS) for f in scanner(files)]
    return sorted(findings, key=lambda f: (f.file, f.line or 0, f.tool, f.rule, f.message))
