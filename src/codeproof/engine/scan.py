"""Security scan of generated files: the module language's own scanners (bandit, the
capability scan of network access and file deletion: :mod:`codeproof.languages.capabilities`)
and, for every language, a secrets scan.

Static analysis only: the code is never imported or executed. Results are
deterministic and sorted by file, line, tool and rule.
"""

from __future__ import annotations

import logging
import math
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from codeproof.core.reports import Finding
from codeproof.languages import registry

logger = logging.getLogger(__name__)

MIN_SECRET_ENTROPY = 3.0
"""Shannon entropy (bits per character) above which a quoted password is reported."""


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


def scan_module(files: dict[str, str], language: str) -> list[Finding]:
    """Scan a module's files; findings sorted by file, line, tool and rule.

    Raises:
        ScanError: A scanner could not run.
    """
    found = registry.find(language)
    scanners = (*(found.scanners if found is not None else ()), scan_secrets)
    findings = [f for scanner in scanners for f in scanner(files)]
    return sorted(findings, key=lambda f: (f.file, f.line or 0, f.tool, f.rule, f.message))
