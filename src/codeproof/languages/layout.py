"""Where a language keeps a module and its tests (the default paths of the agents).

The toolchain's conventions text tells the model where files go; a language's layout
gives the agents the same defaults when a reply omits a path, and tells source files
from test files. Each language package declares its own :class:`Layout`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath


def basename(path: str) -> str:
    """The last component of a workspace path."""
    return PurePosixPath(path).name


@dataclass(frozen=True)
class Layout:
    """File conventions of one language.

    Attributes:
        language: Canonical language name.
        fence_tag: Info string of a fenced block of this language.
        fence_tags: Every info string a model may use for it.
        extensions: File name endings of source and test files.
        related_extensions: Endings of other files written in the language, which
            codeproof reads (retrieval's code sources) but never writes (``.pyi``).
        source_path: Module name -> path of its source file.
        test_path: Module name -> path of its test file.
        is_test_path: Whether a path names a test file.
        test_marker: Finds the test cases in a test file's content.
        worked_test_path: Module name -> path of the tests of the user's worked
            examples (:mod:`codeproof.contract.worked`); the name marks their tests as
            the user's examples (:func:`codeproof.choosing.examples.is_example_test`).
        reserved: Module names that would shadow a standard module.
        code_start: How the first line of an unfenced block of its code looks.
        product_names: Names written like files of the language that name something
            else, lower-case (``node.js`` is the runtime): a request mentioning one does
            not ask for that file.
        class_files: A source file is named after the one class it defines (Java's
            ``LruCache.java`` holds ``class LruCache``): a module that defines a class the
            request states must carry the class's name, spelt as stated.
        standard_types: Type names the language's standard library defines, spelt as
            written (``Set``, ``LocalDate``): a request that writes one uses it and never
            asks for it.
        example_test: Whether a test name, as the language's test report gives it, is
            one of the user's examples: a test generated from a stated example, or one
            of the worked examples' tests (:func:`codeproof.choosing.examples.is_example_test`).
    """

    language: str
    fence_tag: str
    fence_tags: frozenset[str]
    extensions: tuple[str, ...]
    source_path: Callable[[str], str]
    test_path: Callable[[str], str]
    is_test_path: Callable[[str], bool]
    test_marker: re.Pattern[str]
    worked_test_path: Callable[[str], str] | None = None
    reserved: frozenset[str] = frozenset()
    related_extensions: tuple[str, ...] = ()
    code_start: re.Pattern[str] | None = None
    product_names: frozenset[str] = frozenset()
    class_files: bool = False
    standard_types: frozenset[str] = frozenset()
    example_test: Callable[[str], bool] = lambda name: False

    def owns(self, path: str) -> bool:
        """Whether ``path`` is a file of this language."""
        return path.endswith(self.extensions)

    def count_tests(self, content: str) -> int:
        """How many test cases a test file defines (static count)."""
        return len(self.test_marker.findall(content))
