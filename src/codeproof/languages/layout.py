"""Where each language keeps a module and its tests (the default paths of the agents).

The toolchain's conventions text tells the model where files go; this registry gives
the agents the same defaults when a reply omits a path, and tells source files from
test files.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath

from codeproof.core.errors import UnknownLanguageError


def class_name(module: str) -> str:
    """The Java class name of a module name: ``string_utils`` -> ``StringUtils``."""
    parts = [p for p in re.split(r"[^0-9A-Za-z]+", module) if p]
    name = "".join(p[:1].upper() + p[1:] for p in parts) or "Module"
    return name if not name[0].isdigit() else f"M{name}"


def _basename(path: str) -> str:
    return PurePosixPath(path).name


@dataclass(frozen=True)
class Layout:
    """File conventions of one language.

    Attributes:
        language: Canonical language name (``python``, ``javascript``, ``java``).
        fence_tag: Info string of a fenced block of this language.
        fence_tags: Every info string a model may use for it.
        extensions: File name endings of source and test files.
        source_path: Module name -> path of its source file.
        test_path: Module name -> path of its test file.
        is_test_path: Whether a path names a test file.
        test_marker: Finds the test cases in a test file's content.
        reserved: Module names that would shadow a standard module.
    """

    language: str
    fence_tag: str
    fence_tags: frozenset[str]
    extensions: tuple[str, ...]
    source_path: Callable[[str], str]
    test_path: Callable[[str], str]
    is_test_path: Callable[[str], bool]
    test_marker: re.Pattern[str]
    reserved: frozenset[str]

    def owns(self, path: str) -> bool:
        """Whether ``path`` is a file of this language."""
        return path.endswith(self.extensions)


def _py_is_test(path: str) -> bool:
    name = _basename(path)
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def _js_is_test(path: str) -> bool:
    name = _basename(path)
    return name.endswith((".test.js", ".spec.js", ".test.mjs", ".test.cjs"))


def _java_is_test(path: str) -> bool:
    return _basename(path).endswith(("Test.java", "Tests.java"))


_JAVA_LANG = frozenset(
    {"string", "math", "object", "integer", "long", "double", "boolean", "character", "system"}
    | {"thread", "number", "record", "enum", "iterable", "comparable", "exception", "error"}
)

LAYOUTS: dict[str, Layout] = {
    "python": Layout(
        language="python",
        fence_tag="python",
        fence_tags=frozenset({"python", "py", "python3", "py3"}),
        extensions=(".py",),
        source_path=lambda m: f"{m}.py",
        test_path=lambda m: f"test_{m}.py",
        is_test_path=_py_is_test,
        test_marker=re.compile(r"^\s*(?:async\s+)?def\s+(test\w*)\s*\(", re.MULTILINE),
        reserved=frozenset(sys.stdlib_module_names) | {"pytest", "conftest"},
    ),
    "javascript": Layout(
        language="javascript",
        fence_tag="javascript",
        fence_tags=frozenset({"javascript", "js", "node", "nodejs", "cjs", "mjs"}),
        extensions=(".js", ".cjs", ".mjs"),
        source_path=lambda m: f"{m}.js",
        test_path=lambda m: f"{m}.test.js",
        is_test_path=_js_is_test,
        test_marker=re.compile(r"\b(?:test|it)\s*\(\s*(['\"`])(.+?)\1"),
        reserved=frozenset({"test", "assert", "node"}),
    ),
    "java": Layout(
        language="java",
        fence_tag="java",
        fence_tags=frozenset({"java"}),
        extensions=(".java",),
        source_path=lambda m: f"{class_name(m)}.java",
        test_path=lambda m: f"{class_name(m)}Test.java",
        is_test_path=_java_is_test,
        test_marker=re.compile(r"@Test\b[^;{]*?\bvoid\s+(\w+)\s*\(", re.DOTALL),
        reserved=_JAVA_LANG,
    ),
}

_ALIASES: dict[str, str] = {
    "python": "python",
    "py": "python",
    "python3": "python",
    "javascript": "javascript",
    "js": "javascript",
    "node": "javascript",
    "nodejs": "javascript",
    "ecmascript": "javascript",
    "java": "java",
}


def normalize_language(language: str) -> str:
    """Canonical name of a language as a model or user may spell it.

    ``"Python 3"`` -> ``python``, ``"Node.js"`` -> ``javascript``; an unknown language
    comes back lower-cased and stripped.
    """
    lowered = language.strip().lower()
    for token in re.findall(r"[a-z0-9+#]+", lowered):
        if token in _ALIASES:
            return _ALIASES[token]
    return lowered


def layout_for(language: str) -> Layout:
    """The layout of ``language`` (aliases accepted).

    Raises:
        UnknownLanguageError: No layout is known for it.
    """
    canonical = normalize_language(language)
    try:
        return LAYOUTS[canonical]
    except KeyError:
        raise UnknownLanguageError(canonical, list(LAYOUTS)) from None


def count_tests(content: str, language: str) -> int:
    """How many test cases a test file defines (static count)."""
    return len(layout_for(language).test_marker.findall(content))
