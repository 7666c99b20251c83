"""Python benchmark tasks: prompt parts, solution assembly and HumanEval scoring."""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
import warnings
from collections.abc import Sequence

from codeproof.languages.benchmarks import BenchTask
from codeproof.languages.reading import definitions


def _is_demo(node: ast.stmt) -> bool:
    """Top-level example usage: ``print(...)``, ``assert ...``, ``if __name__ == ...``."""
    if isinstance(node, ast.Assert):
        return True
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Call)
    if isinstance(node, ast.If) and isinstance(node.test, ast.Compare):
        return isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__"
    return False


def strip_python_demo(code: str) -> str:
    """``code`` without top-level example usage (kept as is when it does not parse)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    lines = code.splitlines()
    drop = set[int]()
    for node in tree.body:
        if _is_demo(node) and node.end_lineno is not None:
            drop.update(range(node.lineno - 1, node.end_lineno))
    return "\n".join(line for i, line in enumerate(lines) if i not in drop)


def assemble(task: BenchTask, code: str) -> str:
    if defines(code, task.entry_point):
        # The prompt's function (docstring only) is valid Python; the reply redefines it.
        # A prompt in plain words is not Python: the reply is the whole program.
        whole = strip_python_demo(textwrap.dedent(code)).strip()
        if not _is_python(task.prompt):
            return f"{whole}\n"
        return f"{task.prompt.rstrip()}\n\n\n{whole}\n"
    body = code.strip("\n")
    if not body.strip():
        return task.prompt
    if _indent_of(body) != _BODY_INDENT:  # re-indent to the prompt's body level
        body = textwrap.indent(textwrap.dedent(body), _BODY_INDENT)
    return task.prompt + body + "\n"


def _is_python(text: str) -> bool:
    with warnings.catch_warnings():  # an invalid escape in a docstring is still Python
        warnings.simplefilter("ignore")
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):
            return False
    return True


def prompt_parts(task: BenchTask) -> tuple[str, str, str]:
    """(helpers, signature, docstring) of a Python prompt."""
    match = list(re.finditer(rf"^def\s+{re.escape(task.entry_point)}\s*\(", task.prompt, re.M))
    start = match[-1].start() if match else 0
    head, rest = task.prompt[:start], task.prompt[start:]
    signature_end = re.search(r"\)\s*(?:->[^:]+)?:", rest)
    signature = rest[: signature_end.end()] if signature_end else rest.split("\n", 1)[0]
    doc = re.search(r'("""|\'\'\')(.*?)(\1|\Z)', rest[len(signature) :], re.DOTALL)
    docstring = inspect.cleandoc(doc.group(2)) if doc else ""
    return head.strip(), " ".join(signature.split()), docstring


class PythonScorer:
    """``prompt + completion + test + check(entry_point)`` run by ``python3``."""

    sandbox_image = "python"

    def files(self, task: BenchTask, solution: str) -> dict[str, str]:
        program = f"{solution.rstrip()}\n\n\n{task.test.rstrip()}\n\n\ncheck({task.entry_point})\n"
        return {"test.py": program}

    def command(self) -> str:
        return "python3 test.py"

    def prepare(self, dirs: Sequence[str]) -> tuple[dict[str, str], list[str] | None]:
        return {}, None


def defines(code: str, entry_point: str) -> bool:
    """Whether ``code`` defines the function ``entry_point`` (read with the Python
    grammar: a reply that :mod:`ast` cannot parse still counts)."""
    return bool(definitions("python", code, entry_point))


_BODY_INDENT = "    "


def _indent_of(code: str) -> str:
    lines = [line for line in code.splitlines() if line.strip()]
    return min((line[: len(line) - len(line.lstrip())] for line in lines), key=len, default="")
