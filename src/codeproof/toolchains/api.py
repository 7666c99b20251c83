"""The calls of a started toolchain client that the agents' pipelines use."""

from __future__ import annotations

from typing import Any, Protocol

from codeproof.core.types import ProgramRun, TestReport


class ToolchainAPI(Protocol):
    """What :class:`codeproof.toolchains.client.ToolchainClient` offers to run code.

    The workflow (``codeproof.workflow.deps.ToolchainLike``) and the evaluation pipeline
    both depend on this, not on the MCP client itself.
    """

    def run_tests(
        self, files: dict[str, str], tests: dict[str, str], timeout_s: float | None = None
    ) -> TestReport: ...

    def run(
        self,
        files: dict[str, str],
        command_args: list[str],
        stdin: str | None = None,
        timeout_s: float | None = None,
    ) -> ProgramRun: ...

    def conventions(self) -> str: ...


class StartedToolchain(ToolchainAPI, Protocol):
    """A started toolchain client: its calls so far (for the audit trail), and ``close``."""

    @property
    def calls(self) -> list[Any]: ...

    def close(self) -> None: ...
