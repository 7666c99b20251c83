"""A deterministic :class:`Spec` and :class:`Module` from a benchmark prompt.

The pipeline's agents see what a user would: the signature, the docstring and its
examples, and any helper functions the prompt already defines. Never the hidden test.
"""

from __future__ import annotations

import re

from codeproof.contract.examples import (
    examples_of,
    parameters,
    stated_assertions,
    stated_examples,
)
from codeproof.contract.spec_examples import same_example
from codeproof.core.errors import InputError
from codeproof.core.types import SPEC_LIST_MAX, Module, Spec
from codeproof.evaluation.datasets import Task
from codeproof.evaluation.prose import is_prose, prose_module, prose_spec
from codeproof.languages import registry
from codeproof.languages.base import Language
from codeproof.languages.benchmarks import Benchmarks


def _description(docstring: str) -> str:
    kept = []
    lines = docstring.splitlines()
    for i, line in enumerate(lines):
        prev = lines[i - 1].strip() if i else ""
        if line.strip().startswith(">>>") or prev.startswith(">>>"):
            continue
        kept.append(line.rstrip())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


def _benchmarks(task: Task) -> tuple[Language, Benchmarks]:
    language = registry.language_for(task.language)
    if language.benchmarks is None:
        raise InputError(f"no benchmark support for {task.language!r} tasks")
    return language, language.benchmarks


def module_name(task: Task) -> str:
    """The module of a task: the one its prompt fixes (a class), else the entry point
    (suffixed when it would shadow a standard module)."""
    language, benchmarks = _benchmarks(task)
    fixed = benchmarks.module_name(task)
    if fixed is not None:
        return fixed
    name = task.entry_point
    return f"{name}_solution" if name.lower() in language.layout.reserved else name


def spec_for(task: Task) -> Spec:
    """The specification a user would write from the prompt alone (a prompt that declares
    no function is read as words: :mod:`codeproof.evaluation.prose`)."""
    _, benchmarks = _benchmarks(task)
    if is_prose(task, benchmarks):
        return prose_spec(task, benchmarks)
    helpers, signature, docstring = benchmarks.prompt_parts(task)
    description = _description(docstring) or f"Implement {task.entry_point}."
    interface = benchmarks.interface(signature, task.entry_point)
    requirements = [
        f"Implement `{task.entry_point}` exactly as the description says.",
        f"Keep the exact name and parameters: {interface}",
    ]
    if helpers:
        requirements.append(
            "The module must start with these definitions from the prompt, unchanged:\n" + helpers
        )
    exports = benchmarks.constraints(task.entry_point)
    return Spec(
        title=task.entry_point,
        summary=description,
        language=task.language,
        functional_requirements=requirements,
        interfaces=[interface],
        constraints=["Use only the standard library.", *exports],
        acceptance_examples=_examples(task, signature, docstring)[:SPEC_LIST_MAX],
        assumptions=[],
    )


def _examples(task: Task, signature: str, docstring: str) -> list[str]:
    """The docstring's examples, then those the prompt states elsewhere or otherwise."""
    params = parameters(signature)
    read = [
        *examples_of(docstring, task.entry_point, params),
        *stated_examples(task.prompt, [task.entry_point], {task.entry_point: params}),
        *stated_assertions(docstring, [task.entry_point]),
    ]
    unique: dict[str, str] = {}
    for example in read:
        unique.setdefault(same_example(example), example)
    return list(unique.values())


def module_for(task: Task) -> Module:
    """The one module of a benchmark task."""
    _, benchmarks = _benchmarks(task)
    if is_prose(task, benchmarks):
        return prose_module(task, module_name(task))
    _, signature, docstring = benchmarks.prompt_parts(task)
    first = " ".join((_description(docstring).split("\n\n")[0] or task.entry_point).split())
    interface = benchmarks.module_interface(signature)
    return Module(
        name=module_name(task),
        purpose=first[:300],
        language=task.language,
        depends_on=[],
        public_interface=interface,
    )
