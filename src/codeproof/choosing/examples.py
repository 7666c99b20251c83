"""Tests generated, without a model, from the specification's acceptance examples.

An example such as ``slugify("Hello World") -> "hello-world"`` is the user's own word
about the behaviour. A model asked to turn it into a test sometimes gets the expected
value wrong, so examples that parse as *a call of the module's public interface* and *a
literal result* become tests here, character for character. They are protected from
quarantine (:mod:`codeproof.choosing.selection`) and rank candidates first.

Python and JavaScript examples become test files (Python also runs the user's own
``assert`` lines word for word, when they wrap the call in another expression); Java
examples (``new Solution().f(...)`` with typed collections) are checked through probes instead
(:func:`codeproof.choosing.probing.example_checks`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeproof.core.signatures import declaring_part
from codeproof.core.types import Module
from codeproof.languages import registry
from codeproof.languages.values import first_call, split_example


def interface_names(module: Module) -> set[str]:
    """The function names the module's public interface declares."""
    declared = r"([A-Za-z_$][\w$]*)\s*(?:=\s*(?:async\s+)?(?:function\b\s*)?)?\("
    return set(re.findall(declared, declaring_part(module.public_interface)))


def is_example_test(name: str) -> bool:
    """Whether a report's test name is one of the user's examples: a generated example
    test, or a test of a worked example (:mod:`codeproof.contract.worked`), as some
    language's test report names it (:attr:`~codeproof.languages.layout.Layout.example_test`)."""
    return any(language.layout.example_test(name) for language in registry.languages())


def example_tests(module: Module, examples: Sequence[str]) -> dict[str, str]:
    """Test files checking the examples that call ``module``'s interface (may be empty)."""
    language = registry.find(module.language)
    generate = language.choosing.example_tests if language is not None else None
    if generate is None:
        return {}
    names = interface_names(module)
    parsed = []
    for example in examples:
        split = split_example(example)
        found = first_call(split[0]) if split else None
        if split and found and found[0] in names and found[1].strip() == split[0]:
            parsed.append((found[0], split[0], split[1]))
    files = generate(module, parsed) if parsed else {}
    verbatim = language.choosing.assertion_tests if language is not None else None
    statements = [e for e in examples if e.startswith("assert ")]
    if verbatim is not None and statements:
        files |= verbatim(module, statements, names)
    return files
