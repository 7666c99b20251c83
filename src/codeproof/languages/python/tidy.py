"""Clean-up of model-written Python: salvage what compiles, drop demo code, fix test imports."""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Sequence

from codeproof.languages.python.annotations import drop_prose_annotations
from codeproof.languages.python.bindings import after_imports
from codeproof.languages.python.raises_compared import raises_as_blocks

_TOP_DEF = re.compile(r"^(?:@|def\s|async\s+def\s|class\s)")


TEST_LIBRARIES = frozenset({"pytest", "hypothesis"})
"""What a Python test may import besides the standard library and the project: the test
libraries of the sandbox image (:data:`codeproof.languages.python.RECIPE`) and of the
``dev`` extra, which the test designer is told to use (property tests with Hypothesis)."""

_PY_ALLOWED = frozenset(sys.stdlib_module_names) | TEST_LIBRARIES | {"__future__"}


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
        lines.insert(after_imports(tree), f"from {module} import *  # noqa: F403")
    text = "\n".join(lines) + "\n"
    if re.search(r"\bpytest\.", text) and not re.search(r"^import pytest\b", text, re.M):
        text = "import pytest\n" + text
    return text


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


_NAMES_WIN = "# The module's own names, over the copies this file defines (codeproof)."


def _module_names_win_py(source: str, module: str, dependencies: Sequence[str]) -> str:
    """A test file that defines a function or class it also imports from the module under
    test (by name, or with ``import *``) tests its own copy, never the module's: 30 of 957
    stored designed test files did (HumanEval/87 in words: a stub ``def get_row(lst, x):
    pass`` failed 10 tests of right code; /64: a copy of ``vowels_count`` passed its tests
    whatever the module did). The module's names are imported again at the end of the
    file, where they win over the copies."""
    if _NAMES_WIN in source:  # fixed before
        return source
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    kinds = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    defined = {n.name for n in tree.body if isinstance(n, kinds)}
    defined = {name for name in defined if not name.lower().startswith("test")}
    if not defined:
        return source
    ours = {module, *dependencies}
    again: dict[str, list[str]] = {}
    for node in tree.body:
        if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module):
            continue
        if node.module.split(".")[0] not in ours:
            continue
        for alias in node.names:
            if alias.name == "*" or (alias.asname or alias.name) in defined:
                text = alias.name if alias.asname is None else f"{alias.name} as {alias.asname}"
                again.setdefault(node.module, []).append(text)
    lines = [
        f"from {name} import {', '.join(dict.fromkeys(names))}  # noqa: E402, F403"
        for name, names in again.items()
    ]
    if not lines:
        return source
    return source.rstrip("\n") + "\n\n\n" + _NAMES_WIN + "\n" + "\n".join(lines) + "\n"


def fix_python_tests(source: str, module: str, dependencies: Sequence[str]) -> str:
    """Salvage, de-duplicate, make collectable and fix the imports of a pytest file; the
    module's names win over copies the file defines, and an assert comparing with
    ``pytest.raises`` becomes the block it means (:func:`raises_as_blocks`)."""
    text = _collectable_classes_py(_rename_duplicates_py(raises_as_blocks(salvage_python(source))))
    return _module_names_win_py(_fix_imports_py(text, module, dependencies), module, dependencies)


def fix_source(source: str, path: str) -> str:
    """A generated module that compiles where only a prose annotation stopped it
    (:func:`~codeproof.languages.python.annotations.drop_prose_annotations`), without its
    example usage (see :func:`strip_usage_python`)."""
    return strip_usage_python(drop_prose_annotations(source))


def fix_tests(source: str, path: str, module: str, dependencies: Sequence[str]) -> str:
    """A generated pytest file that imports ``module`` as the toolchain runs it."""
    return fix_python_tests(source, module, dependencies)
