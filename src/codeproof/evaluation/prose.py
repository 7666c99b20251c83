"""The spec of a task stated in words: no declaration of the function, only a description
and, usually, an example call (``assert remove_occ("hello", "l") == "heo"``).

Such a prompt fixes the function's name and how it is called by its examples alone. Reading
it as if it were a declaration invents a signature (a quote mark or the first sentence) and
loses the description, and every draft made from that spec shares the misreading. Here the
words are the summary, whole; the interface is the call the user wrote, never parameter
names or types nobody stated; and the stated examples are the acceptance examples.
"""

from __future__ import annotations

import re

from codeproof.contract.examples import stated_assertions, stated_examples
from codeproof.core.types import SPEC_LIST_MAX, Module, Spec
from codeproof.evaluation.datasets import Task
from codeproof.languages.benchmarks import Benchmarks
from codeproof.languages.clike import top_level_args
from codeproof.languages.values import leading_call

_MARKERS = ('"""', "'''", "/**", "/*", "*/", "//", "#", "*")
_CLOSERS = ('"""', "'''", "*/")


def is_prose(task: Task, benchmarks: Benchmarks) -> bool:
    """Whether the prompt states the task in words: it declares no function of that name."""
    return not benchmarks.defines(task.prompt, task.entry_point)


def words_of(prompt: str) -> str:
    """The prompt's text without the quote and comment markers around it."""
    lines = []
    for line in prompt.splitlines():
        text = line.strip()
        for marker in _MARKERS:
            if text.startswith(marker):
                text = text[len(marker) :].strip()
                break
        for closer in _CLOSERS:
            if text.endswith(closer):
                text = text[: -len(closer)].strip()
        lines.append(text)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def stated_call(words: str, entry_point: str) -> str | None:
    """The first call of ``entry_point`` the words show, read whole (its arguments may hold
    brackets, quotes and commas)."""
    for match in re.finditer(rf"(?<![\w.$]){re.escape(entry_point)}\s*\(", words):
        call = leading_call(words[match.start() :])
        if call is not None:
            return call
    return None


def called_as(words: str, entry_point: str) -> str:
    """The interface as the words state it: the name and an example call, or only the name."""
    call = stated_call(words, entry_point)
    if call is None:
        return f"{entry_point}(...): its parameters are not stated; infer them from the description"
    inner = call[call.index("(") + 1 : call.rindex(")")]
    count = len(top_level_args(call)) if inner.strip() else 0
    noun = "argument" if count == 1 else "arguments"
    return f"{entry_point}(...) with {count} positional {noun}, called as in `{call}`"


def prose_spec(task: Task, benchmarks: Benchmarks) -> Spec:
    """The spec a user's words give: everything they said, and nothing invented."""
    words = words_of(task.prompt)
    interface = called_as(words, task.entry_point)
    names = [task.entry_point]
    examples = [*stated_examples(words, names), *stated_assertions(words, names)]
    return Spec(
        title=task.entry_point,
        summary=words or f"Implement {task.entry_point}.",
        language=task.language,
        functional_requirements=[
            f"Implement `{task.entry_point}` exactly as the description says.",
            f"Define `{task.entry_point}` so that the stated examples run as written: the same "
            "name, the same arguments in the same order.",
        ],
        interfaces=[interface],
        constraints=["Use only the standard library.", *benchmarks.constraints(task.entry_point)],
        acceptance_examples=list(dict.fromkeys(examples))[:SPEC_LIST_MAX],
        assumptions=[],
    )


def prose_module(task: Task, name: str) -> Module:
    """The one module of a task stated in words."""
    words = words_of(task.prompt)
    first = " ".join((words.split("\n\n")[0] or task.entry_point).split())
    return Module(
        name=name,
        purpose=first[:300],
        language=task.language,
        depends_on=[],
        public_interface=called_as(words, task.entry_point),
    )
