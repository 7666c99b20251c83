"""Security scan: bandit for Python, secrets for every language."""

from __future__ import annotations

import subprocess

import pytest

from codeproof.core.errors import ScanError
from codeproof.engine.scan import entropy, scan_module, scan_secrets
from codeproof.languages.python import scan as python_scan

INSECURE = """import subprocess


def calc(expr):
    return eval(expr)


def run(cmd):
    return subprocess.run(cmd, shell=True)
"""


def test_bandit_finds_eval_and_shell_true() -> None:
    findings = scan_module({"calc.py": INSECURE}, "python")
    by_rule = {f.rule: f for f in findings if f.tool == "bandit"}
    assert by_rule["B307"].line == 5 and by_rule["B307"].file == "calc.py"
    assert by_rule["B602"].severity == "high" and by_rule["B602"].line == 9


def test_bandit_ignores_asserts_in_tests_and_reports_unparsable_files() -> None:
    files = {
        "test_calc.py": "def test_a():\n    assert 1 + 1 == 2\n",
        "sub/broken.py": "def (:\n",
        "README.md": "eval(x)",
    }
    findings = scan_module(files, "python")
    assert [(f.file, f.rule, f.severity) for f in findings] == [
        ("sub/broken.py", "bandit-error", "info")
    ]


def test_clean_code_has_no_findings() -> None:
    assert scan_module({"adder.py": "def add(a, b):\n    return a + b\n"}, "python") == []


SECRETS = {
    "aws-access-key-id": 'KEY = "AKIAIOSFODNN7EXAMPLE"',
    "aws-secret-access-key": 'aws_secret_access_key = "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"',
    "private-key": "-----BEGIN RSA PRIVATE KEY-----",
    "github-token": "token = 'ghp_" + "a1B2" * 9 + "'",
    "openai-api-key": "const k = 'sk-proj-" + "Ab3_" * 10 + "';",
    "slack-token": "xoxb-123456789012-abcdefABCDEF",
    "slack-webhook": "https://hooks.slack.com/services/T0001/B0001/abcdEFGH1234",
    "hardcoded-secret": 'db_password = "S3cr3t!Pa55w0rd#2024"',
}


@pytest.mark.parametrize(("rule", "line"), sorted(SECRETS.items()))
def test_secret_is_found_and_redacted(rule: str, line: str) -> None:
    [finding] = scan_secrets({"config.js": f"// config\n{line}\n"})
    assert (finding.rule, finding.line, finding.tool, finding.severity) == (
        rule,
        2,
        "secrets",
        "high",
    )
    assert "…(" in finding.message
    assert line.split("=")[-1].strip(" '\";") not in finding.message


@pytest.mark.parametrize(
    "line",
    [
        'password = "password"',
        'password = "changeme123!"',
        'api_key = "<your-api-key>"',
        'token = "${TOKEN}"',
        'password = input("Password: ")',
        "sk-short",
    ],
)
def test_placeholders_and_low_entropy_values_are_not_secrets(line: str) -> None:
    assert scan_secrets({"a.py": line}) == []


def test_other_languages_get_the_secrets_scan_only() -> None:
    files = {"run.js": "eval(x);\nconst password = 'Zx9!Qw7#Lk2$';\n"}
    [finding] = scan_module(files, "javascript")
    assert finding.tool == "secrets" and finding.line == 2


def test_findings_are_sorted_and_deterministic() -> None:
    files = {"b.py": INSECURE, "a.py": 'pwd = "Zx9!Qw7#Lk2$"\n' + INSECURE}
    first = scan_module(files, "python")
    assert first == scan_module(dict(reversed(files.items())), "python")
    keys = [(f.file, f.line or 0) for f in first]
    assert keys == sorted(keys) and keys[0][0] == "a.py"


def test_entropy() -> None:
    assert entropy("") == 0.0
    assert entropy("aaaa") == 0.0
    assert entropy("abcd") == pytest.approx(2.0)


def test_a_failing_bandit_is_a_scan_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(args, 2, stdout="", stderr="bandit: bad option")

    monkeypatch.setattr(python_scan.subprocess, "run", broken)
    with pytest.raises(ScanError, match="bad option") as info:
        scan_module({"a.py": "x = 1\n"}, "python")
    assert info.value.tool == "bandit"
