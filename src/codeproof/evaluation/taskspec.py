"""A deterministic :class:`Spec` and :class:`Module` from a benchmark prompt.

The pipeline's agents see what a user would: the signature, the docstring and its
examples, and any helper functions the prompt already defines. Never the hidden test.
"""

from __future__ import annotations

import inspect
import re
import textwrap
from collections.abc import Callable

from codeproof.core.types import SPEC_LIST_MAX, Module, Spec
from codeproof.evaluation.datasets import Language, Task
from codeproof.evaluation.docexamples import examples_of, parameters
from codeproof.languages.layout import layout_for

_LANGUAGE_LABEL: dict[Language, str] = {
    "python": "Python",
    "javascript": "JavaScript (Node.js, CommonJS)",
    "java": "Java",
}


def _python_parts(task: Task) -> tuple[str, str, str]:
    """(helpers, signature, docstring) of a Python prompt."""
    match = list(re.finditer(rf"^def\s+{re.escape(task.entry_point)}\s*\(", task.prompt, re.M))
    start = match[-1].start() if match else 0
    head, rest = task.prompt[:start], task.prompt[start:]
    signature_end = re.search(r"\)\s*(?:->[^:]+)?:", rest)
    signature = rest[: signature_end.end()] if signature_end else rest.split("\n", 1)[0]
    doc = re.search(r'("""|\'\'\')(.*?)(\1|\Z)', rest[len(signature) :], re.DOTALL)
    docstring = inspect.cleandoc(doc.group(2)) if doc else ""
    return head.strip(), " ".join(signature.split()), docstring


def _c_like_parts(task: Task) -> tuple[str, str, str]:
    """(helpers, signature, docstring) of a JavaScript or Java prompt."""
    lines = task.prompt.rstrip().splitlines()
    signature = lines[-1].strip().rstrip("{").strip() if lines else ""
    body = "\n".join(lines[:-1])
    comments = list(re.finditer(r"/\*\*?(.*?)\*/", body, re.DOTALL))
    docstring = ""
    helpers = body
    if comments:
        last = comments[-1]
        raw = re.sub(r"^\s*\*\s?", "", last.group(1), flags=re.MULTILINE)
        docstring = textwrap.dedent(raw).strip()
        helpers = body[: last.start()]
    helpers = re.sub(r"^\s*import\s+[\w.*]+;\s*$", "", helpers, flags=re.MULTILINE)
    helpers = re.sub(r"^\s*class\s+Solution\s*\{\s*$", "", helpers, flags=re.MULTILINE)
    return helpers.strip(), signature, docstring


_PARTS: dict[Language, Callable[[Task], tuple[str, str, str]]] = {
    "python": _python_parts,
    "javascript": _c_like_parts,
    "java": _c_like_parts,
}


def _description(docstring: str) -> str:
    kept = []
    lines = docstring.splitlines()
    for i, line in enumerate(lines):
        prev = lines[i - 1].strip() if i else ""
        if line.strip().startswith(">>>") or prev.startswith(">>>"):
            continue
        kept.append(line.rstrip())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


def module_name(task: Task) -> str:
    """The module of a task: ``Solution`` for Java (the prompt's class), else the
    entry point (suffixed when it would shadow a standard module)."""
    if task.language == "java":
        return "Solution"
    layout = layout_for(task.language)
    name = task.entry_point
    return f"{name}_solution" if name.lower() in layout.reserved else name


def spec_for(task: Task) -> Spec:
    """The specification a user would write from the prompt alone."""
    helpers, signature, docstring = _PARTS[task.language](task)
    description = _description(docstring) or f"Implement {task.entry_point}."
    interface = (
        f"class Solution {{ {signature} }}  (called as new Solution().{task.entry_point}(...))"
        if task.language == "java"
        else signature
    )
    requirements = [
        f"Implement `{task.entry_point}` exactly as the description says.",
        f"Keep the exact name and parameters: {interface}",
    ]
    if helpers:
        requirements.append(
            "The module must start with these definitions from the prompt, unchanged:\n" + helpers
        )
    exports = (
        [f"Export it with module.exports = {{ {task.entry_point} }}."]
        if task.language == "javascript"
        else []
    )
    return Spec(
        title=task.entry_point,
        summary=description,
        language=task.language,
        functional_requirements=requirements,
        interfaces=[interface],
        constraints=["Use only the standard library.", *exports],
        acceptance_examples=examples_of(docstring, task.entry_point, parameters(signature))[
            :SPEC_LIST_MAX
        ],
        assumptions=[],
    )


def module_for(task: Task) -> Module:
    """The one module of a benchmark task."""
    _, signature, docstring = _PARTS[task.language](task)
    first = " ".join((_description(docstring).split("\n\n")[0] or task.entry_point).split())
    interface = f"class Solution {{ {signature} }}" if task.language == "java" else signature
    return Module(
        name=module_name(task),
        purpose=first[:300],
        language=task.language,
        depends_on=[],
        public_interface=interface,
    )
