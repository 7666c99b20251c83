"""Python test files: find, remove and narrow pytest tests by their report names (``ast``)."""

from __future__ import annotations

import ast
from collections.abc import Collection

from codeproof.languages.base import WORKED_STEM, Span, failure_type
from codeproof.languages.clike import line_offsets
from codeproof.languages.layout import basename


def _python_target(name: str) -> tuple[str | None, str]:
    """(class, function) a pytest report name points at."""
    parts = name.split("[", 1)[0].split(".")
    function = parts[-1]
    owner = parts[-2] if len(parts) >= 2 and parts[-2][:1].isupper() else None
    return owner, function


def _python_node(source: str, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    owner, function = _python_target(name)
    body: list[ast.stmt] = tree.body
    if owner is not None:
        classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == owner]
        if len(classes) != 1:
            return None
        body = classes[0].body
    matches = [
        n
        for n in body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == function
    ]
    return matches[0] if len(matches) == 1 and matches[0].end_lineno is not None else None


def locate_test(source: str, name: str) -> Span | None:
    """The whole lines of the test function (decorators included) ``name`` reports."""
    node = _python_node(source, name)
    if node is None or node.end_lineno is None:
        return None
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
    offsets = line_offsets(source)
    return offsets[first], offsets[min(node.end_lineno, len(offsets) - 1)]


def remove_test(source: str, name: str) -> str | None:
    """Cut the test function that ``name`` reports (a class left empty gets ``pass``)."""
    span, node = locate_test(source, name), _python_node(source, name)
    if span is None or node is None:
        return None
    text = source[: span[0]] + source[span[1] :]
    if not _parses(text):  # the class is left empty
        text = source[: span[0]] + " " * node.col_offset + "pass\n" + source[span[1] :]
    return text if _parses(text) else None


def _parses(source: str) -> bool:
    try:
        ast.parse(source)
    except SyntaxError:
        return False
    return True


def narrow_tests(source: str, names: Collection[str]) -> str:
    """The file's non-definition statements plus the definitions named in ``names``
    (empty when none is found or the file does not parse)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ""
    keep: list[str] = []
    selected = 0
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name not in names:
                continue
            selected += 1
            decorators = "".join(
                f"@{ast.get_source_segment(source, d)}\n" for d in node.decorator_list
            )
            keep.append(decorators + (ast.get_source_segment(source, node) or ""))
        else:
            keep.append(ast.get_source_segment(source, node) or "")
    return "\n\n".join(k for k in keep if k) + "\n" if selected else ""


def is_test_path(path: str) -> bool:
    """Whether ``path`` is a file pytest collects (``test_*.py``, ``*_test.py``, conftest)."""
    name = basename(path)
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def is_example_test(name: str) -> bool:
    """Whether a pytest report name is one of the user's examples: a test of a generated
    examples file (``test_m_examples.test_example_0``), any test of a worked examples file,
    or the load error of such a file (``test_report_worked_examples``: py-inventory-report,
    where a draft without the function the examples import met "no example" because the
    file's one error was not counted as the examples it kept from running)."""
    parts = name.split(".")
    if len(parts) == 1:
        return name.startswith("test_") and name.endswith("_examples")
    if len(parts) == 2 and parts[0].endswith("_examples"):
        return parts[1].startswith("test_example_") or parts[0].endswith(WORKED_STEM)
    return False


def is_assertion(message: str) -> bool:
    """Whether a pytest failure is a failed check (``assert``, ``pytest.raises``) rather
    than an exception raised by the code under test."""
    first = next((line for line in message.splitlines() if line.strip()), "")
    text = first.removeprefix("E").strip()
    return text.startswith("assert ") or failure_type(message) in _CHECK_TYPES


_CHECK_TYPES = frozenset({"AssertionError", "Failed"})
