"""Scanners shared by the C-like languages (JavaScript, Java): balanced brackets that skip
string literals, top-level argument splitting, and cutting a span out of a file."""

from __future__ import annotations

import re
from collections.abc import Callable

from codeproof.languages.base import BenchTask, Span
from codeproof.languages.syntax import edit, parse

STRING_QUOTES = "'\"`"


def skip_literal(source: str, i: int) -> int:
    """The index after the string literal or comment starting at ``i`` (else ``i``)."""
    ch = source[i]
    if ch in STRING_QUOTES:
        j = i + 1
        while j < len(source) and source[j] != ch:
            j += 2 if source[j] == "\\" else 1
        return j + 1
    if source.startswith("//", i):
        end = source.find("\n", i)
        return len(source) if end < 0 else end
    if source.startswith("/*", i):
        end = source.find("*/", i + 2)
        return len(source) if end < 0 else end + 2
    return i


def matching(source: str, i: int, open_ch: str, close_ch: str) -> int | None:
    """The index of the bracket closing the one at ``i`` (strings and comments skipped)."""
    depth = 0
    while i < len(source):
        skipped = skip_literal(source, i)
        if skipped != i:
            i = skipped
            continue
        if source[i] == open_ch:
            depth += 1
        elif source[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def cut(source: str, start: int, end: int) -> str:
    """Remove ``source[start:end]`` plus a trailing ``;`` and the rest of that line."""
    tail = re.match(r"[ \t]*;?[ \t]*\n?", source[end:])
    end += tail.end() if tail else 0
    line_start = source.rfind("\n", 0, start) + 1
    if not source[line_start:start].strip():
        start = line_start
    return source[:start] + source[end:]


def c_like_remover(locate: Callable[[str, str], Span | None]) -> Callable[[str, str], str | None]:
    def remove(source: str, name: str) -> str | None:
        span = locate(source, name)
        return None if span is None else cut(source, *span)

    return remove


def balanced_end(text: str, start: int, opener: str, closer: str) -> int:
    """Index just after the bracket closing the first ``opener`` at or after ``start``."""
    depth = 0
    quote: str | None = None
    i = text.find(opener, start)
    if i < 0:
        return -1
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"`":
            quote = ch
        elif ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def top_level_args(call: str) -> list[str]:
    """The argument texts of ``f(a, [b, c], 'd,e')`` (split at top-level commas)."""
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


C_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def close_braces(code: str, language: str) -> str:
    """``code`` with the ``}`` it leaves open (strings, comments, regular expressions and
    template literals are not read for braces: the language's parser reads them)."""
    missing = parse(language, code).unclosed("{", "}")
    return code.rstrip() + "\n" + "}\n" * missing if missing > 0 else code


CALL_NAME = re.compile(r"([A-Za-z_$][\w$]*)\s*\(")
