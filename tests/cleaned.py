"""A module run as the model wrote it and as the clean-up leaves it, in a real toolchain."""

from __future__ import annotations

from collections.abc import Mapping

from codeproof.languages import registry
from codeproof.toolchains.client import ToolchainClient


def passed_as_written_and_cleaned(
    toolchain: ToolchainClient, language: str, path: str, source: str, tests: Mapping[str, str]
) -> tuple[int, int]:
    """How many of ``tests`` (one test each run) pass on ``source`` at ``path``, as
    written (which may not compile: then none ran) and after the language's
    ``fix_source`` (all of them ran)."""
    cleaned = registry.language_for(language).editing.fix_source(source, path)
    counts = []
    for code in (source, cleaned):
        report = toolchain.run_tests({path: code}, dict(tests), 60)
        assert report.total == len(tests) or (code is source and not report.compiled)
        counts.append(report.passed)
    return counts[0], counts[1]
