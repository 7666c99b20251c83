"""The repairer: fix the code against a failing test report.

The prompt is focused on what a small model can fix: it shows the failing tests only
(for Python), each failure's message and the tail of the output, and asks to fix the
first error. A test may be changed only with a reason quoting the specification; a
test change without a reason is dropped.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Collection, Mapping
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
from codeproof.agents.repair_reply import main_path, parse_repair
from codeproof.core.errors import ContextLengthError
from codeproof.core.types import Module, RepairResult, Spec, TestReport
from codeproof.languages import registry
from codeproof.languages.base import Language
from codeproof.languages.fences import FILE_FORMAT
from codeproof.languages.registry import layout_for
from codeproof.llm.base import ChatModel, ChatSettings

logger = logging.getLogger(__name__)

MAX_FAILURES = 5
OUTPUT_TAIL = 2500

REPAIR_SYSTEM = """You fix {language} code so that its tests pass.
Fix the FIRST error first. Keep the public names and signatures.
Reply with the complete corrected file, then one line "Summary: <what you changed>"."""

REPAIR_RULES = """Rules:
- Change the code, not the tests.
- Only if a test contradicts the specification, also give the complete corrected test \
file and a line "Reason: <the requirement the test contradicts>"."""

NOT_COMPILED = "Not shown: the code does not compile. Fix the compiler errors below first."


def repair(
    model: ChatModel,
    spec: Spec,
    module: Module,
    files: dict[str, str],
    tests: dict[str, str],
    report: TestReport,
    *,
    hint: str | None = None,
    history: list[str] | None = None,
    temperature: float = 0.0,
    max_tokens: int = 1536,
    context: str = "",
    stated: Collection[str] = (),
    missing: Collection[str] = (),
    dependency_files: Mapping[str, str] | None = None,
) -> RepairResult:
    """Propose a fix of ``files`` for the failures in ``report``.

    Args:
        model: The chat model.
        spec: The specification (the authority when code and tests disagree).
        module: The module being repaired.
        files: Its current source files (path -> content).
        tests: Its test files (path -> content).
        report: The failing test report.
        hint: A hint from the user (after an escalation).
        history: Summaries of earlier attempts, oldest first (not to be repeated).
        temperature: Sampling temperature (raise it to vary a repeated attempt).
        max_tokens: Completion budget.
        context: Retrieved reference material (a fenced section labelled as data).
        stated: Names of the report's tests that check examples the user stated: their
            failures come first, marked as the user's.
        missing: Top-level names the module's interface declares that the code does not
            define (py-bill-split: three drafts of ``split.py`` without
            ``split_evenly``; the repair of one returned it unchanged).
        dependency_files: Source files of the modules it uses (path -> content), shown
            as built and never changed by the repair (py-inventory-report: ``to_csv``
            called ``inventory.items()`` where ``store.Inventory.items`` is a dict, and a
            repair that saw only ``report.py`` could not tell).

    Returns:
        The changed files (possibly none when the reply held no code). Test changes
        are only returned with a reason.

    Raises:
        ContextLengthError: The prompt does not fit, or the reply was cut at the token
            limit (py-word-freq: 3,883 prompt tokens left 212 of a 4,096-token window,
            and the cut file did not parse).
    """
    layout = layout_for(module.language)
    shown = (
        NOT_COMPILED
        if source_errors_only(report, tests)
        else render_files(
            failing_tests(tests, report, registry.language_for(layout.language)), layout
        )
    )
    main = main_path(files, module, layout)
    parts = Parts(
        fixed=(render_spec(spec), render_module(module), missing_section(missing)),
        code=section("Current code", render_files(files, layout)),
        dependencies=section(DEPENDENCIES, render_files(dependency_files or {}, layout)),
        tests=shown,
        report=report,
        stated=frozenset(stated),
        hint=section("Hint from the user", hint or ""),
        history=section("Earlier attempts that did not work", bullets(history or [])),
        context=context,
        ending=(REPAIR_RULES, FILE_FORMAT.format(path=main, tag=layout.fence_tag)),
    )
    system = REPAIR_SYSTEM.format(language=module.language)
    user, reply_tokens = fitted(parts, system, files.get(main, ""), model)
    messages = conversation(system, user)
    settings = ChatSettings(temperature=temperature, max_tokens=max(max_tokens, reply_tokens))
    response = model.chat(messages, settings)
    if response.finish_reason == "length":  # its last file is partial: it does not fit
        raise ContextLengthError(
            f"the repair of {module.name} was cut at the token limit "
            f"({response.usage.prompt_tokens} prompt tokens)",
            provider=response.provider or model.name,
            hint="raise llm.ctx_size (it is split between llm.slots)",
        )
    frozen = frozenset(dependency_files or ())
    return parse_repair(response.text, module, files, tests, layout, frozen=frozen)


CHARS_PER_TOKEN = 3.0
"""Characters per token, estimated low: a prompt is trimmed a little early rather than
its reply cut. Qwen2.5-Coder's code prompts measured 3.9 to 4.1 in one run, but a repair
of py-roman with a test file of quoted numerals measured 3.08 (12,362 characters, 4,009
tokens): estimated at 3.5, it was sent, and the reply was cut after 62 tokens."""
REPLY_MARGIN = 200
"""Tokens of a reply beyond its file: the fence lines, the summary, a reason."""
SHORT_TAIL = 600
"""The test output's tail kept when the whole prompt would not fit, or when every failure
carries its own message (:func:`output_tail`)."""
USER_EXAMPLE = " (an example the user stated: the code must meet it)"
"""The mark of a failure of the user's stated examples in a repair prompt."""
DEPENDENCIES = "Modules it uses (built and tested: use them as they are, never change them)"
TESTS_LEFT_OUT = "Not shown (they do not fit in the model's context): the failures below name them."


def missing_section(names: Collection[str]) -> str:
    """The declared names the code lacks, as an instruction (empty when none)."""
    if not names:
        return ""
    listed = ", ".join(f"`{n}`" for n in names)
    return section(
        "Missing from the code",
        f"The interface above declares {listed}, which the code does not define: define "
        "it as declared (its tests cannot run without it).",
    )


@dataclass(frozen=True)
class Parts:
    """The repair prompt's sections, in the order they appear."""

    fixed: tuple[str, ...]
    code: str
    dependencies: str
    tests: str
    report: TestReport
    stated: frozenset[str]
    hint: str
    history: str
    context: str
    ending: tuple[str, ...]

    def render(self, *, tail: int = OUTPUT_TAIL) -> str:
        return join_sections(
            *self.fixed,
            self.code,
            self.dependencies,
            section("Tests", self.tests),
            section("Test results", describe_report(self.report, tail=tail, stated=self.stated)),
            self.hint,
            self.history,
            self.context,
            *self.ending,
        )


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def fitted(parts: Parts, system: str, code: str, model: ChatModel) -> tuple[str, int]:
    """The user prompt, trimmed to leave room for the reply in the model's context window,
    and the tokens that reply needs (the whole file again, and a summary).

    Trimmed in this order until it fits: the retrieved context, the earlier attempts, the
    output's tail, the modules it uses, the tests (the failures still name them). The
    specification, the code and the failures always stay: without them there is nothing
    to repair against.

    Raises:
        ContextLengthError: Even the trimmed prompt leaves no room for the reply (the
            call is not made: its reply would be cut, 1-2 minutes for nothing here).
    """
    reply = estimate_tokens(code) + REPLY_MARGIN
    window = model.context_window
    tail = output_tail(parts.report)
    if window is None:
        return parts.render(tail=tail), reply
    trims: list[tuple[Parts, int]] = [
        (parts, tail),
        (replace(parts, context=""), tail),
        (replace(parts, context="", history=""), tail),
        (replace(parts, context="", history=""), SHORT_TAIL),
        (replace(parts, context="", history="", dependencies=""), SHORT_TAIL),
        (replace(parts, context="", history="", dependencies="", tests=TESTS_LEFT_OUT), SHORT_TAIL),
    ]
    for trimmed, kept in trims:
        user = trimmed.render(tail=kept)
        prompt = estimate_tokens(system) + estimate_tokens(user)
        if prompt + reply <= window:
            if trimmed is not parts or kept != tail:
                logger.info("repair: prompt trimmed to ~%d tokens to fit %d", prompt, window)
            return user, reply
    raise ContextLengthError(
        f"the repair prompt does not fit: ~{prompt} prompt tokens and ~{reply} for the "
        f"reply exceed the {window}-token window",
        provider=model.name,
        hint="raise llm.ctx_size (it is split between llm.slots) or lower llm.slots",
    )


_DURATION = re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s|sec|seconds)\b")


def _stable(output: str) -> str:
    """Test output without its timings: they change from run to run, the failures do not
    (so a rerun asks the model the same question)."""
    return _DURATION.sub("…", output)


def output_tail(report: TestReport) -> int:
    """How much of the test output's end a repair prompt shows: a short tail when every
    failure carries its own message (py-roman: the 2,500-character tail repeated the
    tracebacks of the failures above it), else the long one (a timeout, a collection
    error, a crash with no failing test)."""
    failing = report.failures
    if report.timed_out or not failing or not all(t.message.strip() for t in failing):
        return OUTPUT_TAIL
    return SHORT_TAIL


def describe_report(
    report: TestReport, *, tail: int = OUTPUT_TAIL, stated: Collection[str] = ()
) -> str:
    """The failures a small model needs: counts, messages, the output's ``tail``. The
    failures of the tests named in ``stated`` (the user's own examples) come first and
    say so: the first ``MAX_FAILURES`` are shown, and the model fixes the first."""
    head = f"{report.passed} of {report.total} tests passed."
    if report.timed_out:
        head += " The run TIMED OUT (an endless loop or a very slow algorithm?)."
    failing = report.failures
    failures = sorted(failing, key=lambda t: t.name not in stated)[:MAX_FAILURES]
    lines = [
        f"- {t.name}{USER_EXAMPLE if t.name in stated else ''}: "
        f"{clip(t.message.strip(), 400) or t.outcome}"
        for t in failures
    ]
    return join_sections(
        head,
        report.message.strip(),
        section("Failures", "\n".join(lines)),
        section("Output (end)", clip(_stable(report.output.strip()), tail, tail=True)),
    )


def _test_name(case_name: str) -> str:
    """``test_x.py::test_a[1]`` / ``test_x.test_a`` -> ``test_a``."""
    last = re.split(r"::|\.|/", case_name.split("[", 1)[0])[-1]
    return last.strip()


def source_errors_only(report: TestReport, tests: Mapping[str, str]) -> bool:
    """Whether the code did not compile and every compiler error is in a code file, not
    a test file: the tests cannot help then, and cost the most of the prompt (2,670
    tokens for ``LocalDate.SATURDAY``, "cannot find symbol", most of them a 30-assertion
    test; without the tests the 1.5B model still returned the file unchanged there)."""
    if report.total or not report.diagnostics:
        return False
    test_names = {PurePosixPath(path).name for path in tests}
    return all(d.file and PurePosixPath(d.file).name not in test_names for d in report.diagnostics)


def failing_tests(
    tests: Mapping[str, str], report: TestReport, language: Language
) -> dict[str, str]:
    """Only the failing tests of each file (with the file's set-up) where the language can
    narrow a test file, and no file where no test failed; otherwise the test files as
    they are."""
    narrow = language.editing.narrow_tests
    if narrow is None:
        return dict(tests)
    failing = {_test_name(t.name) for t in report.failures}
    owners = [_owners(t.name, tests) for t in report.failures]
    if owners and all(owners):  # every failure names its file: a file without one is left out
        tests = {path: tests[path] for path in tests if any(path in o for o in owners)}
    return {path: narrow(content, failing) or content for path, content in tests.items()}


def _owners(case_name: str, tests: Mapping[str, str]) -> set[str]:
    """The test files whose name (without suffix) is a part of the case's dotted or
    path-like name: ``test_x.test_a`` and ``tests/test_x.py::test_a`` -> ``test_x.py``
    (py-roman: a repair of the user's four missed examples also showed a passing
    44-assertion test file, 1,000 of its 2,500 prompt tokens)."""
    parts = set(re.split(r"::|\.|/", case_name.split("[", 1)[0]))
    return {path for path in tests if PurePosixPath(path).stem in parts}
