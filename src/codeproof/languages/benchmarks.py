"""How a language's benchmark prompts are read, answered and scored
(:attr:`codeproof.languages.base.Language.benchmarks`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol


class BenchTask(Protocol):
    """The fields of a benchmark task a language reads (``evaluation.datasets.BenchTask``)."""

    @property
    def task_id(self) -> str: ...
    @property
    def prompt(self) -> str: ...
    @property
    def entry_point(self) -> str: ...
    @property
    def test(self) -> str: ...


class Scorer(Protocol):
    """Runs a benchmark's hidden tests on solutions, many per sandbox session."""

    sandbox_image: str

    def files(self, task: BenchTask, solution: str) -> dict[str, str]:
        """The files of one scoring directory (solution + hidden test)."""
        ...

    def command(self) -> str:
        """The shell command that runs the hidden test in a scoring directory."""
        ...

    def prepare(self, dirs: Sequence[str]) -> tuple[dict[str, str], list[str] | None]:
        """Files and a command to run once before the directories (e.g. compile all)."""
        ...


@dataclass(frozen=True)
class Benchmarks:
    """How a language's benchmark prompts are read, answered and scored.

    Attributes:
        prompt_parts: ``task -> (helpers, signature, docstring)`` of the prompt.
        answer: What a one-call answer must contain (for the single-shot prompt).
        assemble: ``(task, code) -> solution`` that the hidden test can run.
        defines: ``(code, entry point) -> whether it defines the entry point``.
        scorer: Runs the hidden tests.
        entry_point: Finds a prompt's entry point when a record does not name it.
        module_name: ``task -> module name`` when the prompt fixes one (a class).
        interface: ``(signature, entry point) -> public interface`` as the spec states it.
        module_interface: ``signature -> the module's public interface``.
        completion_fix: ``(code, task) -> module source`` for a completion of the prompt.
        constraints: ``entry point -> extra constraints`` of the spec (how to export...).
        humaneval_x: The language's file in HumanEval-X (``js`` -> ``humaneval-x-js``).
    """

    prompt_parts: Callable[[BenchTask], tuple[str, str, str]]
    answer: str
    assemble: Callable[[BenchTask, str], str]
    defines: Callable[[str, str], bool]
    scorer: Scorer
    entry_point: re.Pattern[str]
    module_name: Callable[[BenchTask], str | None] = lambda task: None
    interface: Callable[[str, str], str] = lambda signature, entry_point: signature
    module_interface: Callable[[str], str] = lambda signature: signature
    completion_fix: Callable[[str, BenchTask], str] = lambda code, task: code
    constraints: Callable[[str], list[str]] = lambda entry_point: []
    humaneval_x: str = ""
