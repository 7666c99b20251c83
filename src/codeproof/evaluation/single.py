"""The ``single`` mode: one model call per task, code extracted from the reply."""

from __future__ import annotations

from codeproof.evaluation.datasets import Language, Task
from codeproof.evaluation.extract import solution_from_reply
from codeproof.llm.base import ChatModel, ChatSettings, Message

_FENCE_TAG: dict[Language, str] = {"python": "python", "javascript": "javascript", "java": "java"}
_WHAT: dict[Language, str] = {
    "python": "the complete function (with its `def` line and any imports it needs)",
    "javascript": "the complete function (with its declaration line)",
    "java": "the complete `class Solution` (with its imports)",
}

SINGLE_SYSTEM = (
    "You are an expert {language} programmer. Complete the code the user gives you so that "
    "it does exactly what its comment describes. Reply with {what} in one ```{tag} code "
    "block. No tests, no example usage, no explanation."
)


def messages_for(task: Task) -> list[Message]:
    """The one request of the single mode: the prompt only (never the hidden test)."""
    system = SINGLE_SYSTEM.format(
        language=task.language, what=_WHAT[task.language], tag=_FENCE_TAG[task.language]
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
