"""What a language is to codeproof: one :class:`Language` value per language package.

Everything that differs by language lives in ``codeproof/languages/<name>/`` and is
reached through the :class:`Language` the package registers
(:mod:`codeproof.languages.registry`). Code outside ``languages/`` asks the registry and
uses these capabilities; it never branches on a language name. A capability that a
language lacks is ``None`` (no prober: candidates are compared by their test results
only; no example-test generator: stated examples are checked by probing or not at all).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from codeproof.core.proof import DisputedCheck
from codeproof.core.reports import Finding
from codeproof.core.types import Module, Spec
from codeproof.languages.benchmarks import Benchmarks
from codeproof.languages.chunking import Chunking
from codeproof.languages.code_mutants import CodeMutant
from codeproof.languages.existing import ExistingProject
from codeproof.languages.layout import Layout
from codeproof.languages.notations import Notations
from codeproof.languages.reading import Declared, Example, Signature
from codeproof.sandbox.recipe import Recipe

if TYPE_CHECKING:
    from codeproof.toolchains.base import Toolchain

Span = tuple[int, int]
"""``(start, end)`` character offsets of a test in its file."""

MARK = "@@codeproof-probe@@ "
"""Prefix of a probe program's output lines (one JSON value per probe call)."""

CALL_TIMEOUT_S = 2.0
"""Each probe call is cut after this long (it then outputs ``!TimeoutError``)."""

MAX_PROBES = 40
"""Probes per module (the first ones found, in test-file order)."""

EXAMPLE_TITLE = "spec example"
"""How a generated example test's title starts (where tests have titles, not names)."""

WORKED_STEM = "_worked_examples"
"""How the file name of a Python test module of worked examples ends (before ``.py``)."""

WORKED_CLASS = "WorkedExamplesTest"
"""How the class of a JUnit test of worked examples ends."""


# -- editing code and tests ------------------------------------------------------------


@dataclass(frozen=True)
class Editing:
    """Clean-up of model output, and reading and editing of test files.

    Attributes:
        fix_source: ``(source, path) -> source``: a module as the toolchain expects it
            (demo code removed, exports added, class named after its file...).
        fix_tests: ``(source, path, module, dependencies) -> source``: a test file that
            imports the module under test the way the toolchain runs it.
        locate_test: ``(file content, test name) -> span`` of one test, or ``None``.
        remove_test: ``(file content, test name) -> content`` without that test, or
            ``None`` when it cannot be removed cleanly.
        uncompiled_tests: Compiled languages: ``(compiler message, test files) -> the
            test methods the errors point into``.
        narrow_tests: ``(file content, failing test names) -> the file with only those
            tests`` (for the repairer's prompt), or ``None`` to show whole files.
        signatures: ``(source, path) -> public signatures`` (for docs and prompts).
        examples: ``(test source) -> usage examples`` read from passing tests (docs).
        imports_of: ``(test source, module name) -> the statements loading the module``
            (the docs' usage examples start with them), or ``None`` where tests load a
            module without one (Java's default package).
        assertion: ``failure message -> whether the test's check failed`` (the code ran and
            gave another result), as opposed to the code crashing (a repairable error).
        fit_to_dependencies: ``(source, path, dependency files, own names) -> source``: a
            module's imports of the project's other modules fitted to what those export
            (a JavaScript ``require`` bound whole where the name is one property of it);
            the own names (what the module's interface declares) stay the module's own.
        fit_tests: ``(test source, what each project module declares, the names only
            modules built apart declare) -> source``: a test file whose imports and
            calls fit the declared interfaces (a name imported from the module that
            declares it, a declared function not called as a method, no import of a
            name this build lacks), or ``None`` where the language has no such fitter.
    """

    fix_source: Callable[[str, str], str]
    fix_tests: Callable[[str, str, str, Sequence[str]], str]
    locate_test: Callable[[str, str], Span | None]
    remove_test: Callable[[str, str], str | None]
    signatures: Callable[[str, str], list[Signature]]
    examples: Callable[[str], list[Example]]
    imports_of: Callable[[str, str], list[str]] | None = None
    uncompiled_tests: Callable[[str, Mapping[str, str]], list[str]] | None = None
    narrow_tests: Callable[[str, Collection[str]], str | None] | None = None
    assertion: Callable[[str], bool] = lambda message: False
    fit_to_dependencies: Callable[[str, str, Mapping[str, str], Collection[str]], str] | None = None
    fit_tests: Callable[[str, Sequence[Declared], Collection[str]], str] | None = None


# -- choosing by execution -------------------------------------------------------------


@dataclass(frozen=True)
class Prober:
    """Runs a candidate on probe calls and prints one canonical output per call.

    Attributes:
        calls: ``(test files, interface names) -> probe calls`` with literal arguments.
        program: ``(calls, module stem) -> probe program source``.
        path: Where the probe program goes in the workspace.
        command: The run's arguments (default: the probe file itself).
        uncompiled: ``(compiler output, calls) -> indices of calls that did not compile``.
        broken: Errors that say the code itself is broken, never what it does with an
            input (a name it never defined, a module that does not load): outputs
            raising them (``!NameError``, or ``!import`` for a module that did not
            load) agree with nothing (:func:`codeproof.choosing.probing.agreement`).
    """

    calls: Callable[[Mapping[str, str], Collection[str]], list[str]]
    program: Callable[[Sequence[str], str], str]
    path: str
    command: tuple[str, ...] = ()
    uncompiled: Callable[[str, Sequence[str]], set[int]] | None = None
    broken: frozenset[str] = frozenset()


def is_broken(output: str, broken: Collection[str]) -> bool:
    """Whether a probe ``output`` says the code itself is broken: it raised one of the
    ``broken`` errors (:attr:`Prober.broken`, ``!NameError``) or comes from a module
    that did not load (``!import ...``). Such an output agrees with nothing and is never
    an expected value or an answer offered in a question."""
    return output.startswith("!import ") or (output.startswith("!") and output[1:] in broken)


def script_prober(
    calls: Callable[[Mapping[str, str], Collection[str]], list[str]],
    template: str,
    path: str,
    broken: frozenset[str] = frozenset(),
) -> Prober:
    """A prober whose program is ``template`` filled with the calls (a script language)."""

    def render(probe_calls: Sequence[str], stem: str) -> str:
        return template.format(
            calls=json.dumps(list(probe_calls)),
            module=stem,
            mark=MARK,
            limit_s=int(CALL_TIMEOUT_S),
            limit_ms=int(CALL_TIMEOUT_S * 1000),
        )

    return Prober(calls, render, path, broken=broken)


@dataclass(frozen=True)
class ExampleProbe:
    """Stated examples checked through probes (where they do not become test files).

    Attributes:
        checks: ``(examples, interface names) -> [(probe call, expected value)]``.
        met: ``(expected value, probe output) -> whether the example is met``.
    """

    checks: Callable[[Sequence[str], Collection[str]], list[tuple[str, object]]]
    met: Callable[[object, str], bool]


AssertEditor = Callable[[str, Mapping[str, str]], tuple[str, list[DisputedCheck]]]
"""``(test file, probe call -> agreed output) -> (edited file, the checks set aside)``."""

ExampleTests = Callable[[Module, list[tuple[str, str, str]]], dict[str, str]]
"""``(module, [(example, call, expected)]) -> generated test files`` of stated examples."""

AssertionTests = Callable[[Module, list[str], set[str]], dict[str, str]]
"""``(module, [assert statement], interface names) -> generated test files`` running the
user's own assertions word for word (those the language can run; the others are dropped)."""


@dataclass(frozen=True)
class Choosing:
    """What choice by execution can do in this language (all optional).

    Attributes:
        prober: Runs candidates on probe calls (output agreement, MBR-exec).
        example_tests: Turns stated examples into generated test files.
        example_probe: Checks stated examples through the prober instead.
        assertion_tests: Runs stated ``assert`` lines verbatim (a call inside another
            expression, ``assert set(f(x)) == {1}``, that no ``call -> value`` reads).
        mutate_call: ``(probe call) -> mutated calls`` (tie-breaking inputs).
        edit_asserts: Sets aside assertions that contradict the agreed outputs.
        value: ``(literal text) -> (ok, Python value)`` of one of the language's literals.
        splice: ``(base, donor, function) -> base`` with the donor's top-level function
            (and the helpers it uses), or None (:mod:`codeproof.choosing.recombining`).
        calls_by_test: ``(test files, function names) -> test name -> the functions it
            calls`` (what each stated example is an example of).
    """

    prober: Prober | None = None
    example_tests: ExampleTests | None = None
    example_probe: ExampleProbe | None = None
    assertion_tests: AssertionTests | None = None
    mutate_call: Callable[[str], list[str]] | None = None
    edit_asserts: AssertEditor | None = None
    value: Callable[[str], tuple[bool, object]] | None = None
    splice: Callable[[dict[str, str], dict[str, str], str], dict[str, str] | None] | None = None
    calls_by_test: Callable[[dict[str, str], Collection[str]], dict[str, frozenset[str]]] | None = (
        None
    )


# -- the proof of a module -------------------------------------------------------------


@dataclass(frozen=True)
class Proving:
    """What the proof of a module's tests can do in this language (all optional).

    Attributes:
        mutants: ``source -> code mutants`` of one source file: operators, boundaries,
            constants, return values, removed statements, regular expressions
            (:mod:`codeproof.languages.code_mutants`).
        checks: ``(module, [(probe call, probe output)]) -> test files`` that check each
            call gives that output, generated without a model (empty when none can).
    """

    mutants: Callable[[str], list[CodeMutant]] | None = None
    checks: Callable[[Module, Sequence[tuple[str, str]]], dict[str, str]] | None = None


# -- projects, docs, security -----------------------------------------------------------

Scanner = Callable[[Mapping[str, str]], list[Finding]]
"""``(files) -> findings`` of one security scanner."""


@dataclass(frozen=True)
class Project:
    """How a finished project of this language is laid out and documented.

    Attributes:
        dockerfile: The project's Dockerfile (runs its tests).
        extras: ``spec -> extra project files`` (``package.json``...).
        install: README text on what to install.
        run_tests: README command that runs the tests.
    """

    dockerfile: str
    install: str
    run_tests: str
    extras: Callable[[Spec], dict[str, str]] = lambda spec: {}


# -- the language --------------------------------------------------------------------------


@dataclass(frozen=True)
class Language:
    """One language: names, files, toolchain, and every language-specific capability.

    Attributes:
        name: Canonical name (the ``language`` of specs, modules and datasets).
        label: How prompts name it (``JavaScript (Node.js, CommonJS)``).
        aliases: Other spellings users and models use (``js``, ``node``...).
        layout: Where modules and tests go; fence tags.
        toolchain_name: The built-in toolchain server's name (``codeproof mcp toolchain X``).
        make_toolchain: Its implementation (``None``: a configured server serves it).
        image: The sandbox image recipe (``None``: its toolchain server brings its own).
        editing: Clean-up and test editing.
        choosing: Probing, example tests, mutation, assertion editing.
        proving: Code mutants and generated checks (the proof of the tests).
        scanners: Security scanners of its code (besides the language-free ones).
        project: Project template and docs text.
        benchmarks: Benchmark support, or ``None``.
        existing: How its modules fit into an existing project's layout (``--project``,
            :mod:`codeproof.languages.existing`); ``None``: flat, at the project's root.
        chunking: How retrieval cuts its source files into chunks by symbol
            (:mod:`codeproof.languages.chunking`); ``None``: into windows of lines.
        misfit_edit: Sets aside test calls that cannot bind to any candidate's
            signature: ``(tests, candidates, names, interface, protected) -> (tests, notes)``.
        property_tests: How the test designer checks a rule over many inputs (a line of
            its prompt).
        notations: How its test code states checks, read in the request's words.
    """

    name: str
    label: str
    aliases: frozenset[str]
    layout: Layout
    toolchain_name: str
    make_toolchain: Callable[[], Toolchain] | None
    image: Recipe | None
    editing: Editing
    project: Project
    choosing: Choosing = field(default_factory=Choosing)
    proving: Proving = field(default_factory=Proving)
    scanners: tuple[Scanner, ...] = ()
    benchmarks: Benchmarks | None = None
    existing: ExistingProject | None = None
    chunking: Chunking | None = None
    property_tests: str = ""
    notations: Notations = field(default_factory=Notations)
    misfit_edit: (
        Callable[
            [dict[str, str], Sequence[dict[str, str]], Collection[str], str, Collection[str]],
            tuple[dict[str, str], list[str]],
        ]
        | None
    ) = None

    def spelled(self, token: str) -> bool:
        """Whether ``token`` (lower case) names this language."""
        return token == self.name or token in self.aliases


_FAILURE_TYPE = re.compile(r"^\s*(?:E\s+)?(?P<type>[A-Za-z_$][\w.$]*)(?:\s*\[[^\]]*\])?\s*(?::|$)")


def failure_type(message: str) -> str:
    """The exception type a test failure message starts with (``pkg.AssertionError``,
    ``AssertionError [ERR_ASSERTION]``, pytest's ``E   TypeError``), or ``""``."""
    for line in message.splitlines():
        if line.strip():
            match = _FAILURE_TYPE.match(line)
            return match.group("type").rsplit(".", 1)[-1] if match else ""
    return ""


def words(text: str) -> list[str]:
    """The lower-case tokens of a language name as written (``Node.js`` -> node, js)."""
    return re.findall(r"[a-z0-9+#]+", text.strip().lower())
