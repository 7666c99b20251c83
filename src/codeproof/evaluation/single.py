"""The ``single`` mode: one model call per task, code extracted from the reply."""

from __future__ import annotations

from codeproof.core.errors import InputError
from codeproof.evaluation.datasets import Task
from codeproof.evaluation.extract import solution_from_reply
from codeproof.languages import registry
from codeproof.llm.base import ChatModel, ChatSettings, Message

SINGLE_SYSTEM = (
    "You are an expert {language} programmer. Complete the code the user gives you so that "
    "it does exactly what its comment describes. Reply with {what} in one ```{tag} code "
    "block. No tests, no example usage, no explanation."
)


def messages_for(task: Task) -> list[Message]:
    """The one request of the single mode: the prompt only (never the hidden test)."""
    language = registry.language_for(task.language)
    if language.benchmarks is None:
        raise InputError(f"no benchmark support for {task.language!r} tasks")
    system = SINGLE_SYSTEM.format(
        language=language.name, what=language.benchmarks.answer, tag=language.layout.fence_tag
    )
    return [Message(role="system", content=system), Message(role="user", content=task.prompt)]


def solve_single(
    model: ChatModel,
    task: Task,
    *,
    max_tokens: int = 1024,
    temperature: float = 0.0,
    seed: int | None = None,
) -> str:
    """One completion (greedy by default) turned into a complete solution source."""
    settings = ChatSettings(temperature=temperature, seed=seed, max_tokens=max_tokens)
    reply = model.chat(messages_for(task), settings)
    return solution_from_reply(task, reply.text)
