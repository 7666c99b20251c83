"""The programmer: one or several diverse candidate implementations of a module.

Small models often misread a task the same way on every sample, so candidates differ in
their *reading* of the task (an approach hint each), not only in temperature. The
workflow runs every candidate against the designed tests and keeps the best.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from codeproof.agents.prompting import (
    bullets,
    clip,
    conversation,
    join_sections,
    render_files,
    render_module,
    render_spec,
    section,
)
from codeproof.core.types import CodeDraft, Module, ModulePlan, SourceFile, Spec
from codeproof.languages import registry
from codeproof.languages.fences import (
    FILE_FORMAT,
    code_blocks,
    looks_like_tests,
    pick_unlabelled,
    prose,
    reply_files,
)
from codeproof.languages.layout import Layout
from codeproof.languages.registry import layout_for
from codeproof.llm.base import ChatModel, ChatSettings, Message

logger = logging.getLogger(__name__)

ContextProvider = Callable[[Spec, Module], str]

CODE_SYSTEM = """You are an expert {language} programmer.
Write the module described below. Follow the conventions exactly.
Output only the code file: no explanations, no tests, no example usage."""

APPROACHES: tuple[str | None, ...] = (
    None,
    "Before coding, re-read every example and make sure your code returns exactly the "
    "expected result for each one.",
    "Pay special attention to edge cases: empty input, zero, negative numbers, duplicates, "
    "boundaries.",
    "Read the task literally; where it is ambiguous, choose the most common meaning of the words.",
    "Write the simplest straightforward solution using only the standard library.",
)
"""One approach hint per candidate (cycled); the first candidate gets none."""

TEMPERATURES: tuple[float, ...] = (0.0, 0.7, 0.7, 0.8, 0.8, 0.9)
"""Temperature per candidate (the last one repeats)."""

DIRECT_SYSTEM = """You are an expert {language} programmer.
Write exactly what the user asks, with the names the user gives. Follow the conventions.
Output only the code file: no explanations, no tests, no example usage."""

WHOLE_SYSTEM = (
    "You are an expert programmer. Build the project the user describes, in the language "
    "the user asks for. Reply with every file of the project: for each file, write the line "
    '"File: <path>" and then the complete file in a fenced code block. Put every file at the '
    "project root (no sub-directories; Java classes in the default package, without a "
    "package line). Use exactly the file, function, class and method names the user states. "
    "No tests, no example usage, no explanation."
)
"""The system prompt of the whole request answered in one call (the one-call baseline of
``codeproof eval-requests`` sends the same)."""

WHOLE_MAX_TOKENS = 3072
"""Reply tokens of the one call answering the whole request (every file of a project)."""

ANSWERS_TITLE = "The user's answers: the code must return exactly these"
"""Heading of the user's answers to questions on the drafts in a direct draft's prompt."""

DIRECT_TEMPERATURE = 0.8
"""Temperature of the direct drafts after the first (greedy) one."""


def no_context(spec: Spec, module: Module) -> str:
    """The default :data:`ContextProvider`: no retrieved context."""
    return ""


def write_code(
    model: ChatModel,
    spec: Spec,
    module: Module,
    plan: ModulePlan,
    conventions: str,
    *,
    context: ContextProvider | None = None,
    dependency_files: dict[str, str] | None = None,
    n: int = 1,
    approaches: Sequence[str | None] | None = None,
    seed: int = 0,
    max_tokens: int = 1536,
    first: int = 0,
) -> list[CodeDraft]:
    """Write ``n`` candidate implementations of ``module``: candidates ``first`` onwards.

    Candidate ``i`` uses temperature ``TEMPERATURES[i]``, seed ``seed + i`` and the
    approach hint ``approaches[i]`` (default :data:`APPROACHES`, cycled). Candidate 0
    is the greedy, hint-free answer; ``first`` > 0 draws more candidates after earlier
    ones, different from them. Candidates are requested concurrently up to the model's
    slots.

    Args:
        model: The chat model.
        spec: The specification.
        module: The module to write.
        plan: Its implementation steps.
        conventions: The toolchain's file conventions for the language.
        context: Retrieves extra context for the prompt (default: none).
        dependency_files: Source files of the modules it depends on (path -> content).
        n: Number of candidates (>= 1).
        approaches: One hint per candidate; ``None`` entries mean no hint.
        seed: Seed of candidate 0.
        max_tokens: Completion budget per candidate.
        first: Index of the first candidate written.

    Returns:
        Exactly ``n`` drafts in candidate order; a draft's ``files`` is empty when its
        reply held no code.
    """
    if n < 1:
        raise ValueError("n must be >= 1")
    layout = layout_for(module.language)
    before = _prompt_body(spec, module, plan, conventions, layout, context, dependency_files)
    reply_format = FILE_FORMAT.format(path=layout.source_path(module.name), tag=layout.fence_tag)
    hints = list(approaches) if approaches is not None else list(APPROACHES)

    def candidate(i: int) -> CodeDraft:
        hint = hints[i % len(hints)] if hints else None
        temperature = TEMPERATURES[min(i, len(TEMPERATURES) - 1)]
        user = join_sections(before, section("Approach", hint or ""), reply_format)
        messages = conversation(CODE_SYSTEM.format(language=module.language), user)
        settings = ChatSettings(temperature=temperature, seed=seed + i, max_tokens=max_tokens)
        reply = model.chat(messages, settings).text
        files = parse_code(reply, module, layout)
        label = f"candidate {i}: temperature={temperature}" + (
            f"; approach: {hint}" if hint else ""
        )
        said = clip(prose(reply), 300)
        return CodeDraft(files=files, notes=join_sections(label, said))

    indices = range(first, first + n)
    workers = max(1, min(n, model.slots))
    if workers == 1:
        return [candidate(i) for i in indices]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="programmer") as pool:
        return list(pool.map(candidate, indices))


def write_direct(
    model: ChatModel,
    words: str,
    module: Module,
    conventions: str,
    *,
    index: int = 0,
    greedy: bool,
    dependency_files: Mapping[str, str] | None = None,
    context: str = "",
    answers: Sequence[str] = (),
    max_tokens: int = 1536,
) -> dict[str, str]:
    """The module written straight from the user's own words (no spec, no plan).

    A ``greedy`` draft is decoded at temperature 0: draft 0 is what one model call gives
    (the first draft written with the user's ``answers`` is greedy too). Others are
    sampled with seed ``index``. ``context`` is retrieved text for the prompt; ``answers`` are the
    user's answers to questions on the drafts (``call -> value``), shown after the
    request. Returns the source files (empty when the reply held no code).
    """
    layout = layout_for(module.language)
    deps = section(
        "Modules you can import (already written, do not rewrite them)",
        render_files(dependency_files or {}, layout, limit=3000),
    )
    user = join_sections(
        section("The user's request", words.strip()),
        section(ANSWERS_TITLE, "\n".join(f"- {a}" for a in answers)),
        "Write this module of the request:\n" + render_module(module),
        section("Conventions", conventions.strip()),
        deps,
        section("Context", context),
        FILE_FORMAT.format(path=layout.source_path(module.name), tag=layout.fence_tag),
    )
    messages = conversation(DIRECT_SYSTEM.format(language=module.language), user)
    temperature = 0.0 if greedy else DIRECT_TEMPERATURE
    settings = ChatSettings(temperature=temperature, seed=index, max_tokens=max_tokens)
    reply = model.chat(messages, settings).text
    return {f.path: f.content for f in parse_code(reply, module, layout)}


@dataclass(frozen=True)
class WholeReply:
    """The files of the one call answering the whole request, and its code blocks
    without a path (left out: nothing says where they go)."""

    files: dict[str, str]
    unnamed: int = 0


def whole_messages(words: str) -> list[Message]:
    """The one request that answers the whole of the user's words: no spec, no plan."""
    return [Message(role="system", content=WHOLE_SYSTEM), Message(role="user", content=words)]


def write_whole(model: ChatModel, words: str, *, max_tokens: int = WHOLE_MAX_TOKENS) -> WholeReply:
    """The whole request answered by one greedy call: what one call gives, every file of
    the project by path (:func:`~codeproof.languages.fences.reply_files`)."""
    text = model.chat(whole_messages(words), ChatSettings(temperature=0.0, max_tokens=max_tokens))
    files, unnamed = reply_files(text.text)
    return WholeReply(files=files, unnamed=unnamed)


def _prompt_body(
    spec: Spec,
    module: Module,
    plan: ModulePlan,
    conventions: str,
    layout: Layout,
    context: ContextProvider | None,
    dependency_files: Mapping[str, str] | None,
) -> str:
    """The user prompt up to the approach hint."""
    extra = (context or no_context)(spec, module)
    deps = (
        section(
            "Modules you can import (already written, do not rewrite them)",
            render_files(dependency_files, layout, limit=3000),
        )
        if dependency_files
        else ""
    )
    return join_sections(
        render_spec(spec),
        render_module(module),
        section("Plan", bullets(plan.steps)),
        section("Conventions", conventions.strip()),
        deps,
        section("Context", extra),
    )


def parse_code(reply: str, module: Module, layout: Layout) -> list[SourceFile]:
    """The source files of a programmer reply.

    Test files are dropped (tests come from the test designer), and so is top-level
    example usage inside a source (:attr:`~codeproof.languages.base.Editing.fix_source`): an
    ``assert`` or ``print`` at module level would run when the tests import it. Paths are
    flattened to the project root. A pathless block becomes the module's default source file.
    """
    blocks = code_blocks(reply, layout)
    files: dict[str, str] = {}
    unlabelled = []
    for block in blocks:
        if block.path is None or (
            layout.is_test_path(block.path) and not looks_like_tests(block, layout)
        ):
            unlabelled.append(replace(block, path=None))  # no path, or a mislabelled source
        elif layout.is_test_path(block.path):
            logger.info("write_code: dropped test file %s", block.path)
        else:
            files[PurePosixPath(block.path).name] = block.code
    default = layout.source_path(module.name)
    if default not in files:
        chosen = pick_unlabelled(unlabelled, layout, tests=False)
        if chosen is not None:
            files[default] = chosen.code
    tidy = registry.language_for(layout.language).editing.fix_source
    return [SourceFile(path=p, content=tidy(c, p)) for p, c in files.items()]
