"""Turn a model reply (or a generated module) into a complete solution source.

A reply may hold a fenced code block or bare code, and the code may be a whole function
(it redefines the entry point: used whole) or just a body (appended to the prompt). The
result of :func:`assemble` is a complete program for the task's language, to which the
scorer appends the hidden test.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable

from codeproof.evaluation.datasets import Language, Task

_FENCE = re.compile(r"```[ \t]*([\w+#.-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_IMPORT_LINE = re.compile(r"^\s*import\s+[\w.*]+\s*;\s*$", re.MULTILINE)
_PACKAGE_LINE = re.compile(r"^\s*package\s+[\w.]+\s*;\s*$", re.MULTILINE)
_JS_NAMES = re.compile(r"(?:\b(?:const|let|var)\s+(\w+)\s*=|\bfunction\s+(\w+)\s*\()")
_C_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_BODY_INDENT = "    "


def _js_declaration(name: str) -> str:
    """A JavaScript function declaration of ``name`` (not a variable of that name)."""
    name = re.escape(name)
    value = r"(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|\w+\s*=>)"
    return rf"(?:\bfunction\s+{name}\s*\(|\b(?:const|let|var)\s+{name}\s*=\s*{value})"


def _defines(code: str, task: Task) -> bool:
    name = re.escape(task.entry_point)
    patterns: dict[Language, str] = {
        "python": rf"^\s*def\s+{name}\s*\(",
        "javascript": _js_declaration(task.entry_point),
        "java": rf"\b{name}\s*\([^;{{}}]*\)\s*(?:throws\s+[\w.,\s]+)?\{{",
    }
    return re.search(patterns[task.language], code, re.MULTILINE) is not None


def extract_code(reply: str, task: Task) -> str:
    """The code of a reply: the fenced block that defines the entry point, else the
    longest fenced block, else the whole reply."""
    blocks = [m.group(2) for m in _FENCE.finditer(reply)]
    if not blocks:
        return reply.strip("\n")
    defining = [b for b in blocks if _defines(b, task)]
    return max(defining or blocks, key=len).strip("\n")


def _brace_balance(code: str) -> int:
    """Open minus closed braces, ignoring strings, chars and comments (C-like syntax)."""
    stripped = re.sub(
        r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`",
        "",
        code,
        flags=re.DOTALL,
    )
    return stripped.count("{") - stripped.count("}")


def _close_braces(code: str) -> str:
    missing = _brace_balance(code)
    return code.rstrip() + "\n" + "}\n" * missing if missing > 0 else code


def _indent_of(code: str) -> str:
    lines = [line for line in code.splitlines() if line.strip()]
    return min((line[: len(line) - len(line.lstrip())] for line in lines), key=len, default="")


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


def _python(task: Task, code: str) -> str:
    if _defines(code, task):
        # The prompt's function (docstring only) is valid Python; the reply redefines it.
        whole = strip_python_demo(textwrap.dedent(code)).strip()
        return f"{task.prompt.rstrip()}\n\n\n{whole}\n"
    body = code.strip("\n")
    if not body.strip():
        return task.prompt
    if _indent_of(body) != _BODY_INDENT:  # re-indent to the prompt's body level
        body = textwrap.indent(textwrap.dedent(body), _BODY_INDENT)
    return task.prompt + body + "\n"


def _js_declared(code: str) -> set[str]:
    """Names declared at any level (comments ignored)."""
    return {a or b for a, b in _JS_NAMES.findall(_C_COMMENTS.sub("", code))}


def _javascript(task: Task, code: str) -> str:
    if not _defines(code, task):
        return _close_braces(task.prompt + code)
    declared = list(re.finditer(_js_declaration(task.entry_point), task.prompt))
    helpers = task.prompt[: declared[-1].start()] if declared else ""
    if _js_declared(helpers) & _js_declared(code):
        helpers = ""  # the reply redefines the helpers too; `const` cannot be declared twice
    return _close_braces(helpers + code.strip() + "\n")


def _java(task: Task, code: str) -> str:
    code = _PACKAGE_LINE.sub("", code)
    code = re.sub(r"\bpublic\s+(final\s+)?class\s+Solution\b", r"\1class Solution", code)
    imports = "\n".join(m.group(0).strip() for m in _IMPORT_LINE.finditer(task.prompt))
    if re.search(r"\bclass\s+Solution\b", code):
        return f"{imports}\n{code.strip()}\n"
    if not _defines(code, task):
        return _close_braces(task.prompt + code)
    # A method (or several) without the class: it replaces the prompt's open method.
    signatures = list(
        re.finditer(rf"^.*\b{re.escape(task.entry_point)}\s*\(", task.prompt, re.MULTILINE)
    )
    head = task.prompt[: signatures[-1].start()] if signatures else f"{imports}\nclass Solution {{"
    own_imports = "\n".join(m.group(0).strip() for m in _IMPORT_LINE.finditer(code))
    methods = _IMPORT_LINE.sub("", code).strip()
    parts = [own_imports, head.rstrip(), textwrap.indent(methods, "    ")]
    return _close_braces("\n".join(p for p in parts if p) + "\n")


_ASSEMBLERS: dict[Language, Callable[[Task, str], str]] = {
    "python": _python,
    "javascript": _javascript,
    "java": _java,
}


def assemble(task: Task, code: str) -> str:
    """A complete solution source for ``task`` from extracted ``code``.

    If the code redefines the entry point it is used whole (keeping the prompt's imports
    and helpers where the language allows), otherwise it is appended to the prompt as the
    function body, with missing closing braces added for JavaScript and Java.
    """
    return _ASSEMBLERS[task.language](task, code)


def solution_from_reply(task: Task, reply: str) -> str:
    """:func:`extract_code` then :func:`assemble`."""
    return assemble(task, extract_code(reply, task))
