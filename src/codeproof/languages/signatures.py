"""Public signatures and passing-test examples of files, read by their language
(:attr:`codeproof.languages.base.Editing.signatures` and ``examples``)."""

from __future__ import annotations

from collections.abc import Mapping

from codeproof.languages import registry
from codeproof.languages.reading import Example, Signature


def signatures(files: Mapping[str, str], language: str) -> list[Signature]:
    """Public signatures of every file (unknown language: none)."""
    found = registry.find(language)
    if found is None:
        return []
    read = found.editing.signatures
    return [sig for path, content in files.items() for sig in read(content, path)]


def imports_of(tests: Mapping[str, str], module: str, language: str) -> list[str]:
    """The lines of ``tests`` that load ``module``, each once (unknown language, or one
    whose tests need no import of a module: none)."""
    found = registry.find(language)
    if found is None or found.editing.imports_of is None:
        return []
    read = found.editing.imports_of
    return list(dict.fromkeys(line for content in tests.values() for line in read(content, module)))


def examples(tests: Mapping[str, str], language: str) -> list[Example]:
    """Every test case of ``tests`` as an example (unknown language: none)."""
    found = registry.find(language)
    if found is None:
        return []
    read = found.editing.examples
    return [ex for content in tests.values() for ex in read(content)]
