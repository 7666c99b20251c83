"""Router, conventions texts and the doctor check (no sandbox needed)."""

from __future__ import annotations

import sys

import pytest

from codeproof.core.config import load_settings
from codeproof.core.errors import UnknownLanguageError
from codeproof.toolchains.client import ToolchainClient
from codeproof.toolchains.doctor import check_toolchains
from codeproof.toolchains.registry import get_toolchain
from codeproof.toolchains.router import languages, resolve, servers, settings_env


def test_defaults_cover_python_javascript_java() -> None:
    settings = load_settings()
    assert languages(settings) == ["java", "javascript", "python"]
    for language, toolchain in [("python", "python"), ("javascript", "node"), ("java", "java")]:
        server = resolve(settings, language)
        assert server.command == [sys.executable, "-m", "codeproof", "mcp", "toolchain", toolchain]
        assert server.builtin


@pytest.mark.parametrize("alias", ["js", "node", "JavaScript", " NodeJS "])
def test_aliases_resolve_to_javascript(alias: str) -> None:
    assert resolve(load_settings(), alias).language == "javascript"


def test_configured_language_is_added_without_code() -> None:
    settings = load_settings(
        toolchains={"go": {"command": ["go-mcp", "--stdio"], "env": {"GOFLAGS": "-mod=mod"}}}
    )
    server = resolve(settings, "go")
    assert (server.command, server.env, server.builtin) == (
        ["go-mcp", "--stdio"],
        {"GOFLAGS": "-mod=mod"},
        False,
    )
    assert languages(settings) == ["go", "java", "javascript", "python"]


def test_configured_server_replaces_a_builtin_one_under_an_alias() -> None:
    settings = load_settings(toolchains={"node": {"command": ["deno-mcp"]}})
    assert resolve(settings, "javascript").command == ["deno-mcp"]
    assert len(servers(settings)) == 3


def test_unknown_language_lists_the_configured_ones() -> None:
    settings = load_settings(toolchains={"go": {"command": ["go-mcp"]}})
    with pytest.raises(UnknownLanguageError) as caught:
        resolve(settings, "cobol")
    assert caught.value.known == ["go", "java", "javascript", "python"]
    assert "go, java, javascript, python" in str(caught.value)
    assert caught.value.exit_code == 2


def test_client_constructor_resolves_without_side_effects() -> None:
    with pytest.raises(UnknownLanguageError):
        ToolchainClient(load_settings(), "cobol")
    settings = load_settings(toolchains={"ghost": {"command": ["/nonexistent/ghost-server"]}})
    client = ToolchainClient(settings, "ghost")  # nothing started, so nothing fails yet
    assert client.language == "ghost" and client.calls == []
    client.close()  # closing a never-started client is fine


def test_builtin_servers_get_the_callers_sandbox_settings() -> None:
    settings = load_settings(sandbox={"backend": "unsafe-local", "timeout_s": 7})
    env = settings_env(settings)
    assert env["CODEPROOF_SANDBOX__BACKEND"] == "unsafe-local"
    assert env["CODEPROOF_SANDBOX__TIMEOUT_S"] == "7.0"
    assert "CODEPROOF_SANDBOX__DEBIAN_MIRROR" not in env  # None values are left out


@pytest.mark.parametrize(
    ("toolchain", "required"),
    [
        (
            "python",
            ["`<module>.py` at the project root", "`test_<module>.py`",
             "`from <module> import <names>`", "pytest", "plain `assert`", "No network"],
        ),
        (
            "node",
            ["`<module>.js`", "CommonJS", "`module.exports = { ... }`", "`<module>.test.js`",
             "const test = require('node:test');",
             "const assert = require('node:assert/strict');", "require('./<module>')"],
        ),
        (
            "java",
            ["`<ClassName>.java`", "default package", "no `package` line",
             "`<ClassName>Test.java`", "JUnit 5", "import org.junit.jupiter.api.Test;",
             "import static org.junit.jupiter.api.Assertions.*;"],
        ),
    ],
)  # fmt: skip
def test_conventions_say_what_the_agents_must_generate(toolchain: str, required: list[str]) -> None:
    text = get_toolchain(toolchain).conventions
    for phrase in required:
        assert phrase in text


def test_doctor_check_reports_missing_server_executables() -> None:
    assert check_toolchains(load_settings()).ok
    broken = load_settings(toolchains={"go": {"command": ["no-such-go-mcp-server"]}})
    result = check_toolchains(broken)
    assert not result.ok and not result.required
    assert "go: no-such-go-mcp-server" in result.detail
    assert result.fix
