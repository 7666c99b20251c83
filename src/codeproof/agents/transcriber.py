"""The transcriber: the user's worked examples, told in words, written as tests.

It sees the module's interface, the test conventions and the passages
(:mod:`codeproof.contract.worked`), never the code. Whether a test it writes is the
user's word is decided by the engine (every value grounded in the passage), not here.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from codeproof.agents.prompting import bullets, conversation, join_sections, render_module, section
from codeproof.agents.test_designer import parse_tests
from codeproof.core.types import Module
from codeproof.languages import registry
from codeproof.languages.fences import FILE_FORMAT
from codeproof.languages.registry import layout_for
from codeproof.llm.base import ChatModel, ChatSettings

logger = logging.getLogger(__name__)

SYSTEM = """You turn the user's worked examples into {language} tests, exactly as the user \
wrote them."""

TASK = """Write one test function per example above. Each test does exactly the steps its \
example states, in order, and checks exactly the results it states: use only the values \
written in the example, add no other inputs, checks or messages. Call only the public \
interface; import it as the conventions say. Do not implement the module."""

TOKENS_PER_EXAMPLE = 260
"""Completion budget per example: one test of a few steps (Java's are the longest)."""


def budget(examples: int) -> int:
    """The reply's token limit for ``examples`` worked examples."""
    return 160 + TOKENS_PER_EXAMPLE * examples


def transcribe(
    model: ChatModel,
    module: Module,
    conventions: str,
    examples: Sequence[str],
    path: str,
    *,
    dependencies: Sequence[Module] = (),
) -> dict[str, str]:
    """The test file at ``path`` checking ``examples`` (empty when the reply has none)."""
    if not examples:
        return {}
    layout = layout_for(module.language)
    numbered = "\n\n".join(f"Example {i}:\n{text.strip()}" for i, text in enumerate(examples, 1))
    user = join_sections(
        render_module(module),
        section(
            "Modules it may use (already built)",
            bullets(f"`{d.name}`: {d.public_interface}" for d in dependencies),
        ),
        section("Conventions", conventions.strip()),
        section("The user's worked examples, word for word", numbered),
        TASK,
        FILE_FORMAT.format(path=path, tag=layout.fence_tag),
    )
    messages = conversation(SYSTEM.format(language=module.language), user)
    settings = ChatSettings(temperature=0.0, max_tokens=budget(len(examples)))
    reply = model.chat(messages, settings).text
    files = parse_tests(reply, module, layout, dependencies=[d.name for d in dependencies])
    if not files:
        logger.info("transcribe: no test for the worked examples of %s", module.name)
        return {}
    fix = registry.language_for(module.language).editing.fix_tests
    return {path: fix(files[0].content, path, module.name, [d.name for d in dependencies])}
