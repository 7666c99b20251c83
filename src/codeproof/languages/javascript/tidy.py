"""Clean-up of model-written JavaScript: drop demo calls, add the export, fix test requires."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import PurePosixPath

from codeproof.languages.clike import balanced_span

_JS_TOP_USAGE = re.compile(
    r"^(?:console\.\w+|assert(?:\.\w+)?|(?:test|it|describe)\.\w+)\s*\(.*\)\s*;?[ \t]*$",
    re.MULTILINE,
)


_JS_TOP_DECLARATION = re.compile(
    r"^(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(|^class\s+([A-Za-z_$][\w$]*)"
    r"|^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|"
    r"[A-Za-z_$][\w$]*\s*=>)",
    re.MULTILINE,
)


_JS_TOP_TEST = re.compile(r"^(?:test|it|describe)\s*\(", re.MULTILINE)


_JS_TEST_REQUIRE = re.compile(
    r"^(?:const|let|var)\s+[^=\n]+=\s*require\(\s*['\"]node:test['\"]\s*\)\s*;?[ \t]*\n?",
    re.MULTILINE,
)


_JS_ASSERT_REQUIRE = re.compile(
    r"^(?:const|let|var)\s+assert\s*=\s*require\(\s*['\"](?:node:)?assert(?:/strict)?['\"]\s*\)"
    r"\s*;?[ \t]*\n?",
    re.MULTILINE,
)


JS_TEST_CALL = re.compile(r"(?<![\w.$])(?:test|it)\s*\(")
"""A ``test(`` or ``it(`` call at any depth."""


def drop_javascript_calls(
    source: str, pattern: re.Pattern[str], when: Callable[[str], bool] = lambda _: True
) -> str:
    """Remove the calls ``pattern`` finds (up to their closing bracket and ``;``) for
    which ``when(call text)`` holds."""
    out, at = [], 0
    for match in pattern.finditer(source):
        if match.start() < at:
            continue
        span = balanced_span(source, match.end() - 1)
        if span is None:
            continue
        end = match.end() - 1 + len(span)
        end += source[end : end + 1] == ";"
        if not when(source[match.start() : end]):
            continue
        out.append(source[at : match.start()])
        at = end
    return "".join([*out, source[at:]])


def strip_usage_javascript(source: str) -> str:
    """Drop top-level tests and example usage from a generated JavaScript module.

    Unindented ``test(...)``/``describe(...)`` blocks (and the ``node:test`` require; the
    assert require once nothing uses it), and one-line ``console.log(...)``/``assert(...)``/
    ``test.run()`` statements whose brackets balance. Code inside functions is never
    touched. A module that exports nothing exports its top-level functions and classes.
    """

    def drop(match: re.Match[str]) -> str:
        line = match.group(0)
        return "" if line.count("(") == line.count(")") else line

    text = _JS_TOP_USAGE.sub(drop, drop_javascript_calls(source, _JS_TOP_TEST))
    if _JS_TOP_TEST.search(text) is None:
        text = _JS_TEST_REQUIRE.sub("", text)
    if not re.search(r"\bassert\b", _JS_ASSERT_REQUIRE.sub("", text)):
        text = _JS_ASSERT_REQUIRE.sub("", text)
    return _export_javascript(re.sub(r"\n{3,}", "\n\n", text))


def _export_javascript(source: str) -> str:
    """Export the top-level functions and classes of a module that exports nothing.

    The tests ``require`` the module; without ``module.exports`` they see ``{}``.
    """
    if re.search(r"\b(?:module\.)?exports\b|^\s*export\s", source, re.MULTILINE):
        return source
    names = [next(g for g in m.groups() if g) for m in _JS_TOP_DECLARATION.finditer(source)]
    if not names:
        return source
    exports = ", ".join(dict.fromkeys(names))
    return source.rstrip() + f"\n\nmodule.exports = {{ {exports} }};\n"


_JS_REQUIRE = re.compile(r"require\(\s*(['\"])(\.{1,2}/[^'\"]+)\1\s*\)")


_JS_BLOCK_END = re.compile(r"^\}\);?[ \t]*$", re.MULTILINE)


def _drop_unfinished_js_tail(source: str) -> str:
    """Cut a reply that stopped mid-test (token limit) after its last complete block.

    Only when the brackets do not balance, so a well-formed file is never touched.
    """
    if source.count("(") == source.count(")") and source.count("{") == source.count("}"):
        return source
    ends = list(_JS_BLOCK_END.finditer(source))
    if not ends:
        return source
    return source[: ends[-1].end()] + "\n"


def fix_javascript_tests(source: str, module: str, dependencies: Sequence[str]) -> str:
    """Require the module by its real path; add missing ``node:test``/assert requires."""
    ours = {module, *dependencies}

    def local(match: re.Match[str]) -> str:
        stem = PurePosixPath(match.group(2)).name.removesuffix(".js")
        target = stem if stem in ours else module
        return f"require('./{target}')"

    text = _drop_unfinished_js_tail(_JS_REQUIRE.sub(local, source))
    head = []
    calls_tests = re.search(r"\b(?:test|it)\s*\(", text) is not None
    if calls_tests and not re.search(
        rf"require\(\s*['\"]\./{re.escape(module)}(?:\.js)?['\"]", text
    ):
        # Tests that call the module's functions without requiring it: make its exports
        # visible (the JavaScript counterpart of Python's ``from module import *``).
        head.append(f"Object.assign(globalThis, require('./{module}'));")
    if re.search(r"\b(?:test|describe|it)\s*\(", text) and "node:test" not in text:
        head.append("const { test, describe, it } = require('node:test');")
    if re.search(r"\bassert\b", text) and not re.search(r"\bassert\b[^\n]*=\s*require\(", text):
        head.append("const assert = require('node:assert/strict');")
    return "\n".join([*head, text]) if head else text


def fix_source(source: str, path: str) -> str:
    """A generated module without its example usage (see :func:`strip_usage_javascript`)."""
    return strip_usage_javascript(source)


def fix_tests(source: str, path: str, module: str, dependencies: Sequence[str]) -> str:
    """A generated ``node:test`` file that requires ``module`` as the toolchain runs it."""
    return fix_javascript_tests(source, module, dependencies)
