"""Deterministic fixes of the mistakes small models make in generated files.

Each fix is cheap, keeps the model's intent and removes a failure that would mask every
test at once: a syntax error in one test function, duplicate test names (the later one
silently replaces the earlier one in Python), an import of a module that does not
exist, a missing test-framework import, a Java class whose name does not match its file.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import PurePosixPath

_TOP_DEF = re.compile(r"^(?:@|def\s|async\s+def\s|class\s)")
_PY_ALLOWED = frozenset(sys.stdlib_module_names) | {"pytest", "__future__"}

TestFixer = Callable[[str, str, Sequence[str]], str]
SourceFixer = Callable[[str], str]


def _compiles(source: str) -> bool:
    try:
        compile(source, "<tests>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def _chunks(lines: list[str]) -> tuple[list[str], list[list[str]]]:
    """Header lines and one chunk per top-level definition (decorators included)."""
    header: list[str] = []
    chunks: list[list[str]] = []
    previous = ""
    for line in lines:
        starts = _TOP_DEF.match(line) and not previous.startswith("@")
        if starts:
            chunks.append([line])
        elif chunks:
            chunks[-1].append(line)
        else:
            header.append(line)
        if line.strip():
            previous = line
    return header, chunks


def salvage_python(source: str) -> str:
    """Drop the top-level definitions that do not compile, keep the rest."""
    if _compiles(source):
        return source
    header, chunks = _chunks(source.splitlines())
    if not _compiles("\n".join(header)):
        header = [line for line in header if _compiles(line.strip())]
    kept = list(header)
    for chunk in chunks:
        if _compiles("\n".join([*kept, *chunk])):
            kept.extend(chunk)
    return "\n".join(kept).rstrip() + "\n"


def _is_main_guard(node: ast.stmt) -> bool:
    """``if __name__ == "__main__":``."""
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
    )


def _is_usage_py(node: ast.stmt) -> bool:
    """A top-level statement that exercises the code instead of defining it.

    Asserts, ``with pytest.raises(...)`` blocks, bare calls such as ``print(f(1))`` and the
    ``__main__`` guard: run at import, they make the module fail to import (or print) when
    the tests load it. Test functions and classes too: the tests' ``from module import *``
    would collect them. A docstring is not usage.
    """
    if isinstance(node, ast.Assert) or _is_main_guard(node):
        return True
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        # tests inside the module: ``from module import *`` in the real tests collects them
        return node.name.startswith(("test_", "Test"))
    if isinstance(node, ast.With):
        return any("raises" in ast.unparse(item.context_expr) for item in node.items)
    return isinstance(node, ast.Expr) and not isinstance(node.value, ast.Constant)


def strip_usage_python(source: str) -> str:
    """Drop top-level example usage and test code from a generated Python module.

    Definitions, imports, assignments and other statements are kept as written; a file
    that does not parse is returned unchanged (the tests report the syntax error).
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    usage = [node for node in tree.body if _is_usage_py(node)]
    if not usage:
        return source
    lines = source.splitlines()
    drop = {i for node in usage for i in range(node.lineno - 1, node.end_lineno or node.lineno)}
    kept = "\n".join(line for i, line in enumerate(lines) if i not in drop).rstrip() + "\n"
    if not re.search(r"\bpytest\b", kept.replace("import pytest", "")):
        kept = re.sub(r"^import pytest[ \t]*\n", "", kept, flags=re.M)
    return kept if _compiles(kept) else source


JS_STRING = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"")


def balanced_span(source: str, start: int) -> str | None:
    """The text from ``source[start]`` (an opening bracket) to its closing bracket."""
    depth, i = 0, start
    while i < len(source):
        char = source[i]
        if char in "'\"":
            string = JS_STRING.match(source, i)
            if string is None:
                return None
            i = string.end()
            continue
        depth += char in "([{"
        depth -= char in ")]}"
        if depth == 0:
            return source[start : i + 1]
        i += 1
    return None


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


def _rename_duplicates_py(source: str) -> str:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.splitlines()
    seen: dict[str, int] = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        count = seen.get(node.name, 0) + 1
        seen[node.name] = count
        if count > 1:
            new = f"{node.name}_{count}"
            while new in seen:
                count += 1
                new = f"{node.name}_{count}"
            seen[new] = 1
            index = node.lineno - 1
            lines[index] = re.sub(rf"\b{re.escape(node.name)}\b", new, lines[index], count=1)
    return "\n".join(lines) + "\n"


def _fix_imports_py(source: str, module: str, dependencies: Sequence[str]) -> str:
    """Point imports of unknown modules at the module; add a missing import."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    ours = {module, *dependencies}
    lines = source.splitlines()
    imports_module = False
    for node in tree.body:
        index = node.lineno - 1
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            root = node.module.split(".")[0]
            if root in ours:
                imports_module = imports_module or root == module
            elif root not in _PY_ALLOWED:
                lines[index] = re.sub(
                    rf"from\s+{re.escape(node.module)}\s+import",
                    f"from {module} import",
                    lines[index],
                    count=1,
                )
                imports_module = True
        elif isinstance(node, ast.Import):
            for alias in node.names:
                root = alias.name.split(".")[0]
                imports_module = imports_module or root == module
    if not imports_module:
        lines.insert(_after_imports(tree), f"from {module} import *  # noqa: F403")
    text = "\n".join(lines) + "\n"
    if re.search(r"\bpytest\.", text) and not re.search(r"^import pytest\b", text, re.M):
        text = "import pytest\n" + text
    return text


def _after_imports(tree: ast.Module) -> int:
    line = 0
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            line = node.end_lineno or node.lineno
        elif not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            break
    return line


def _collectable_classes_py(source: str) -> str:
    """Rename test classes pytest would not collect (``class AddTests`` -> ``TestAddTests``)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.splitlines()
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or node.name.startswith("Test"):
            continue
        if any(ast.unparse(base).endswith("TestCase") for base in node.bases):
            continue  # unittest classes are collected whatever their name
        has_tests = any(
            isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            and item.name.startswith("test")
            for item in node.body
        )
        if has_tests:
            index = node.lineno - 1
            lines[index] = re.sub(
                rf"\bclass\s+{node.name}\b", f"class Test{node.name}", lines[index], count=1
            )
    return "\n".join(lines) + ("\n" if source.endswith("\n") else "")


def fix_python_tests(source: str, module: str, dependencies: Sequence[str]) -> str:
    """Salvage, de-duplicate, make collectable and fix the imports of a pytest file."""
    text = _collectable_classes_py(_rename_duplicates_py(salvage_python(source)))
    return _fix_imports_py(text, module, dependencies)


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


def rename_java_class(source: str, expected: str) -> str:
    """Rename the file's public class to ``expected`` (the file name) when it differs."""
    match = re.search(r"\bpublic\s+(?:final\s+|abstract\s+)*class\s+(\w+)", source)
    if not match or match.group(1) == expected:
        return source
    return re.sub(rf"\b{re.escape(match.group(1))}\b", expected, source)


def _rename_duplicates_java(source: str) -> str:
    seen: dict[str, int] = {}

    def rename(match: re.Match[str]) -> str:
        name = match.group(2)
        seen[name] = seen.get(name, 0) + 1
        return match.group(0) if seen[name] == 1 else f"{match.group(1)}{name}{seen[name]}("

    return re.sub(r"(@Test\b[^;{]*?\bvoid\s+)(\w+)\s*\(", rename, source, flags=re.DOTALL)


_C_SKIP = re.compile(r"//[^\n]*|/\*.*?\*/|'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"", re.DOTALL)


def _drop_unfinished_java_tail(source: str) -> str:
    """Cut a test class that stopped mid-statement (token limit) after its last complete
    statement or block, and close what is open. A file whose braces balance is never
    touched."""
    depth, parens, cut, i = 0, 0, None, 0
    while i < len(source):
        skip = _C_SKIP.match(source, i)
        if skip:
            i = skip.end()
            continue
        char = source[i]
        parens += (char == "(") - (char == ")")
        depth += (char == "{") - (char == "}")
        if depth >= 1 and parens == 0 and char in ";}":
            cut = (i + 1, depth)
        i += 1
    if depth == 0 or cut is None:
        return source
    end, open_blocks = cut
    closing = "".join("\n" + "    " * level + "}" for level in range(open_blocks - 1, -1, -1))
    return source[:end] + closing + "\n"


_JAVA_UTIL = """Arrays List ArrayList LinkedList Map HashMap TreeMap LinkedHashMap Set HashSet
TreeSet LinkedHashSet Optional Collections Iterator Deque ArrayDeque Queue PriorityQueue Stack
Objects Comparator StringJoiner Random BitSet Scanner"""
JAVA_PACKAGES: dict[str, frozenset[str]] = {
    "java.util": frozenset(_JAVA_UTIL.split()),
    "java.util.stream": frozenset({"Collectors", "Stream", "IntStream", "LongStream"}),
    "java.util.function": frozenset(
        {"Function", "BiFunction", "Predicate", "BiPredicate", "Supplier", "Consumer"}
    ),
    "java.math": frozenset({"BigInteger", "BigDecimal", "RoundingMode", "MathContext"}),
}
"""Standard classes small models use without importing them, by package."""


def add_java_imports(source: str) -> str:
    """Add ``import <package>.*;`` for the standard classes a Java file uses but does not
    import (``Arrays`` in a test, ``Collectors`` in a solution); strings and comments are
    not read, and a class the file declares itself is not imported."""
    code = _C_SKIP.sub(" ", source)
    words = set(re.findall(r"\b[A-Z]\w*\b", code))
    declared = set(re.findall(r"\b(?:class|interface|enum|record)\s+(\w+)", code))
    imported = set(re.findall(r"^\s*import\s+(?:static\s+)?([\w.]+(?:\.\*)?)\s*;", code, re.M))
    head = []
    for package, names in JAVA_PACKAGES.items():
        used = (words & names) - declared
        if (
            used
            and f"{package}.*" not in imported
            and not {f"{package}.{n}" for n in used} <= imported
        ):
            head.append(f"import {package}.*;")
    return _with_imports(source, head)


_JAVA_PACKAGE = re.compile(r"^[ \t]*package\s+[\w.]+\s*;[ \t]*\n?", re.MULTILINE)


def tidy_java_source(source: str) -> str:
    """A generated Java file in the default package (the toolchain's convention: a
    ``package com.example;`` line makes the tests fail to find the class), with the
    standard imports it forgot (:func:`add_java_imports`)."""
    return add_java_imports(_JAVA_PACKAGE.sub("", source, count=1))


def _with_imports(source: str, head: Sequence[str]) -> str:
    if not head:
        return source
    package = re.search(r"^\s*package\s+[\w.]+\s*;\s*$", source, re.M)
    at = package.end() if package else 0
    return source[:at] + ("\n" if at else "") + "\n".join(head) + "\n" + source[at:]


def fix_java_tests(source: str, module: str, dependencies: Sequence[str]) -> str:
    """Cut an unfinished tail, de-duplicate test names and add missing JUnit 5 and
    standard library imports."""
    text = _rename_duplicates_java(_drop_unfinished_java_tail(source))
    head = []
    if "@Test" in text and "org.junit.jupiter.api.Test" not in text:
        head.append("import org.junit.jupiter.api.Test;")
    if "Assertions" not in text and re.search(r"\bassert[A-Z]\w*\s*\(", text):
        head.append("import static org.junit.jupiter.api.Assertions.*;")
    return tidy_java_source(_with_imports(text, head))


TEST_FIXERS: dict[str, TestFixer] = {
    "python": fix_python_tests,
    "javascript": fix_javascript_tests,
    "java": fix_java_tests,
}

SOURCE_FIXERS: dict[str, SourceFixer] = {
    "python": strip_usage_python,
    "javascript": strip_usage_javascript,
    "java": tidy_java_source,
}
"""Per-language clean-up of a generated source file (languages without one: as written)."""
