"""The test designer: tests written from the specification only, never from the code."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import PurePosixPath

from codeproof.agents.prompting import (
    bullets,
    conversation,
    render_module,
    render_spec,
    section,
)
from codeproof.core.types import Module, SourceFile, Spec, TestDraft
from codeproof.languages import registry
from codeproof.languages.fences import FILE_FORMAT, code_blocks, looks_like_tests, pick_unlabelled
from codeproof.languages.layout import Layout
from codeproof.languages.registry import layout_for
from codeproof.llm.base import ChatModel, ChatSettings

logger = logging.getLogger(__name__)

TESTS_SYSTEM = """You write {language} tests for a module you cannot see.
The tests check the behaviour the specification describes, nothing else."""

TESTS_USER = """{spec}

{module}

{dependencies}

{rules}

Conventions:
{conventions}

Write {min_tests} to {max_tests} SMALL, INDEPENDENT test functions:
- each test checks ONE behaviour with one or two assertions;
- one test per example of the specification, with exactly its expected result;
- then edge cases (empty input, zero, negative numbers, one element, boundaries) ONLY \
where the specification says what must happen;
- every test has a unique descriptive name;
- call only the public interface; import it as the conventions say.{rule_tail}
Do not implement the module.

{format}"""

RULES_TAIL = """
- a comment in each test names the user's rule it checks (R1, R2, ...);"""

PROPERTY_TAIL = """
- {ids} hold for every input: {property_tests}"""


def design_tests(
    model: ChatModel,
    spec: Spec,
    module: Module,
    conventions: str,
    *,
    dependencies: Sequence[Module] = (),
    rules: str = "",
    invariants: Sequence[str] = (),
    min_tests: int = 6,
    max_tests: int = 12,
    max_tokens: int = 1536,
) -> TestDraft:
    """Write the tests of ``module`` from ``spec`` (the code is never shown).

    The reply is parsed from fenced blocks; blocks that are not test files (e.g. an
    implementation the model wrote anyway) are dropped. The test file is then tidied:
    test functions that do not compile are dropped, duplicate names renamed, imports
    pointed at the module (see :mod:`codeproof.languages.tidy`).

    ``rules`` are the user's own sentences, numbered (:mod:`codeproof.contract.rules`):
    each test names the rule it checks, and the ``invariants`` (ids of the rules that hold
    for every input) get a property test each (how, the language says).

    Returns:
        The test files; ``files`` is empty when the reply held no test code.
    """
    layout = layout_for(module.language)
    language = registry.find(module.language)
    properties = language.property_tests if language is not None else ""
    default = layout.test_path(module.name)
    deps = section(
        "Modules it may use (already built)",
        bullets(f"`{d.name}`: {d.public_interface}" for d in dependencies),
    )
    user = TESTS_USER.format(
        spec=render_spec(spec),
        module=render_module(module),
        dependencies=deps,
        rules=section("The user's words, one rule per line", rules),
        rule_tail=_rule_tail(rules, invariants, properties),
        conventions=conventions.strip(),
        min_tests=min_tests,
        max_tests=max_tests,
        format=FILE_FORMAT.format(path=default, tag=layout.fence_tag),
    )
    user = re.sub(r"\n{3,}", "\n\n", user)
    messages = conversation(TESTS_SYSTEM.format(language=module.language), user)
    files: list[SourceFile] = []
    count = 0
    for settings in (
        ChatSettings(temperature=0.0, max_tokens=max_tokens),
        # A reply without a single runnable test is worthless: ask once more, sampled.
        ChatSettings(temperature=0.7, seed=1, max_tokens=max_tokens),
    ):
        reply = model.chat(messages, settings).text
        files = parse_tests(reply, module, layout, dependencies=[d.name for d in dependencies])
        count = sum(len(layout.test_marker.findall(f.content)) for f in files)
        if count:
            break
        logger.warning("design_tests: no runnable test for %s; asking again", module.name)
    return TestDraft(files=files, notes=f"{count} test(s) in {len(files)} file(s)")


def parse_tests(
    reply: str, module: Module, layout: Layout, *, dependencies: Sequence[str] = ()
) -> list[SourceFile]:
    """The test files of a reply, tidied; non-test files are dropped."""
    blocks = code_blocks(reply, layout)
    files: dict[str, str] = {}
    unlabelled = []
    default = layout.test_path(module.name)
    theirs = {layout.test_path(d) for d in dependencies}
    for block in blocks:
        if block.path is None or (
            not layout.is_test_path(block.path) and looks_like_tests(block, layout)
        ):
            unlabelled.append(replace(block, path=None))  # no path, or mislabelled tests
        elif layout.is_test_path(block.path):
            name = PurePosixPath(block.path).name
            if name in theirs:  # this module's tests, filed under a dependency's name
                files.setdefault(default, block.code)
            else:
                files[name] = block.code
        else:
            logger.info("design_tests: dropped non-test file %s", block.path)
    if default not in files:
        chosen = pick_unlabelled(unlabelled, layout, tests=True)
        if chosen is not None and layout.test_marker.search(chosen.code):
            files[default] = chosen.code
    fixer = registry.language_for(layout.language).editing.fix_tests
    out = [
        SourceFile(path=path, content=fixer(content, path, module.name, dependencies))
        for path, content in files.items()
    ]
    if not out:
        logger.warning("design_tests: the reply for %s held no test code", module.name)
    return out


def _rule_tail(rules: str, invariants: Sequence[str], properties: str) -> str:
    """The instructions about the user's rules: cite them; property tests only for the
    rules that hold for every input, in a language that says how."""
    if not rules:
        return ""
    if not (invariants and properties):
        return RULES_TAIL
    ids = ", ".join(invariants)
    return RULES_TAIL + PROPERTY_TAIL.format(ids=ids, property_tests=properties)
