"""Turn a model reply (or a generated module) into a complete solution source.

A reply may hold a fenced code block or bare code, and the code may be a whole function
(it redefines the entry point: used whole) or just a body (appended to the prompt). The
result of :func:`assemble` is a complete program for the task's language, to which the
scorer appends the hidden test.
"""

from __future__ import annotations

import re

from codeproof.core.errors import InputError
from codeproof.evaluation.datasets import Task
from codeproof.languages import registry

_FENCE = re.compile(r"```[ \t]*([\w+#.-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)


def _defines(code: str, task: Task) -> bool:
    benchmarks = registry.language_for(task.language).benchmarks
    return benchmarks is not None and benchmarks.defines(code, task.entry_point)


def extract_code(reply: str, task: Task) -> str:
    """The code of a reply: the fenced block that defines the entry point, else the
    longest fenced block, else the whole reply."""
    blocks = [m.group(2) for m in _FENCE.finditer(reply)]
    if not blocks:
        return reply.strip("\n")
    defining = [b for b in blocks if _defines(b, task)]
    return max(defining or blocks, key=len).strip("\n")


def assemble(task: Task, code: str) -> str:
    """A complete solution source for ``task`` from extracted ``code``.

    If the code redefines the entry point it is used whole (keeping the prompt's imports
    and helpers where the language allows), otherwise it is appended to the prompt as the
    function body, with missing closing braces added for JavaScript and Java.
    """
    benchmarks = registry.language_for(task.language).benchmarks
    if benchmarks is None:
        raise InputError(f"no benchmark support for {task.language!r} tasks")
    return benchmarks.assemble(task, code)


def solution_from_reply(task: Task, reply: str) -> str:
    """:func:`extract_code` then :func:`assemble`."""
    return assemble(task, extract_code(reply, task))
