"""Every request's acceptance suite is satisfiable: its reference passes all of it, in the
sandbox, through the language's toolchain server; and it fails without the code."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from codeproof.core.config import Settings
from codeproof.evaluation.request_cases import (
    RequestCase,
    find_requests_dir,
    load_requests,
    reference_files,
)
from codeproof.toolchains.client import ToolchainClient, open_toolchain

pytestmark = [pytest.mark.docker, pytest.mark.slow]

ROOT = find_requests_dir()
CASES = load_requests(ROOT)


@pytest.fixture(scope="module")
def clients(docker_ready: Settings) -> Iterator[dict[str, ToolchainClient]]:
    opened = {
        lang: open_toolchain(docker_ready, lang) for lang in sorted({c.language for c in CASES})
    }
    yield opened
    for client in opened.values():
        client.close()


def test_the_benchmark_has_the_stated_shape() -> None:
    by_language = {
        lang: [c for c in CASES if c.language == lang] for lang in ("python", "javascript", "java")
    }
    assert all(len(cases) >= 5 for cases in by_language.values())
    assert sum(c.meta.multi_module for c in CASES) >= 4
    assert all(6 <= c.meta.checks <= 15 for c in CASES)
    for case in CASES:
        assert len(case.meta.files) >= (2 if case.meta.multi_module else 1), case.id
        for name in case.meta.files:  # stated in the request (Java: its class)
            stated = name.removesuffix(".java") if case.language == "java" else name
            assert stated in case.text, (case.id, name)
        for name in case.meta.names:
            assert name in case.text, (case.id, name)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_the_reference_passes_every_check(
    case: RequestCase, clients: dict[str, ToolchainClient]
) -> None:
    files = reference_files(ROOT, case.id)
    assert sorted(files) == sorted(case.meta.files)
    report = clients[case.language].run_tests(files, dict(case.acceptance), 60)
    failing = [f"{t.name}: {t.message[:200]}" for t in report.tests if t.outcome != "passed"]
    assert failing == [] and report.message == ""
    assert report.total == report.passed == case.meta.checks


@pytest.mark.parametrize(
    "case",
    [next(c for c in CASES if c.language == lang) for lang in ("python", "javascript", "java")],
    ids=lambda c: c.id,
)
def test_the_suite_fails_without_the_code(
    case: RequestCase, clients: dict[str, ToolchainClient]
) -> None:
    report = clients[case.language].run_tests({"README.md": "nothing\n"}, dict(case.acceptance), 60)
    assert report.passed == 0
