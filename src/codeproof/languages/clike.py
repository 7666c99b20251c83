"""Helpers shared by the C-like languages (JavaScript, Java), over the syntax facade:
a benchmark prompt's parts and the braces a completion leaves open; and the splitting
of an example's argument list as docstrings write it (notation, not code)."""

from __future__ import annotations

from collections.abc import Callable

from codeproof.languages.benchmarks import BenchTask
from codeproof.languages.syntax import edit, parse


def top_level_args(call: str) -> list[str]:
    """The argument texts of ``f(a, [b, c], 'd,e')`` (split at top-level commas).

    For the notation of docstring examples and signatures (:mod:`codeproof.evaluation.
    contract.examples`), which is no one language's code; code is read with the syntax facade.
    """
    inner = call[call.index("(") + 1 : call.rindex(")")]
    args, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(inner):
        if quote:
            quote = "" if ch == quote and inner[i - 1] != "\\" else quote
        elif ch in "'\"`":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(inner[start:i].strip())
            start = i + 1
    args.append(inner[start:].strip())
    return [a for a in args if a]


PromptParts = Callable[[BenchTask], tuple[str, str, str]]


def c_like_parts(language: str) -> PromptParts:
    """``task -> (helpers, signature, docstring)`` of a JavaScript or Java prompt: the
    entry point's declaration as far as its body, the comment right before it, and the
    code before that (imports and the enclosing class's header left out)."""

    def parts(task: BenchTask) -> tuple[str, str, str]:
        tree = parse(language, task.prompt)
        declared = tree.declarations()
        found = [
            d
            for d in declared
            if d.name == task.entry_point and d.kind in ("function", "method") and d.body
        ]
        if not found:
            return "", " ".join(task.prompt.split()), ""
        entry = found[-1]
        body = entry.body
        signature = task.prompt[entry.node.start : body.start if body else entry.node.end]
        comments = [c for c in tree.comments() if c.end <= entry.node.start]
        start = entry.node.start
        if entry.doc and comments and not task.prompt[comments[-1].end : start].strip():
            start = comments[-1].start
        cuts = [(d.node.start, d.node.end, "") for d in declared if d.kind in ("import", "package")]
        cuts += [  # the header of the class around the entry point, up to its body's "{"
            (d.node.start, d.body.start + 1, "")
            for d in declared
            if d.kind == "class" and d.body is not None and d.node.contains(entry.node)
        ]
        helpers = edit.replace(task.prompt[:start], [c for c in cuts if c[1] <= start])
        return helpers.strip(), " ".join(signature.split()), entry.doc

    return parts


def line_offsets(source: str) -> list[int]:
    offsets = [0]
    for line in source.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    return offsets


def close_braces(code: str, language: str) -> str:
    """``code`` with the ``}`` it leaves open (strings, comments, regular expressions and
    template literals are not read for braces: the language's parser reads them)."""
    missing = parse(language, code).unclosed("{", "}")
    return code.rstrip() + "\n" + "}\n" * missing if missing > 0 else code
