"""Readers shared by the grammars of the C family: escape sequences and comments.

They read tokens the parser has already delimited (one escape sequence, one comment), so
nothing here decides where a string or a comment starts or ends.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping

from codeproof.languages.syntax.tree import Node

COMMON_ESCAPES: Mapping[str, str] = {
    "n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f",
    '"': '"', "'": "'", "\\": "\\",
}  # fmt: skip


def decode_escape(sequence: str, simple: Mapping[str, str], octal: bool) -> str | None:
    """The character(s) one escape sequence (``\\n``, ``\\x41``, ``\\u0041``,
    ``\\u{1F600}``, ``\\101`` when ``octal``, a line continuation) stands for; ``None``
    for a malformed one."""
    body = sequence[1:]
    if not body:
        return None
    if body in simple:
        return simple[body]
    if body[0] in "\r\n\u2028\u2029":
        return ""  # a backslash at the end of a line continues the string
    if body[0] in "xu":
        digits = body.lstrip("u") if body[0] == "u" else body[1:]
        digits = digits.removeprefix("{").removesuffix("}")
        try:
            return chr(int(digits, 16))
        except (ValueError, OverflowError):
            return None
    if octal and body.isdigit():
        try:
            return chr(int(body, 8))
        except ValueError:
            return None
    return body if len(body) == 1 else None


def string_value(
    parts: Iterable[Node], simple: Mapping[str, str], octal: bool, escape: str
) -> str | None:
    """The value of a string from its pieces: fragments as written, each ``escape``
    node decoded; ``None`` when a piece is anything else (an interpolation)."""
    out = []
    for part in parts:
        if part.kind == escape:
            decoded = decode_escape(part.text, simple, octal)
            if decoded is None:
                return None
            out.append(decoded)
        elif part.named:
            out.append(part.text)
    return "".join(out)


def comment_text(comment: str) -> str:
    """A ``/* ... */``, ``/** ... */`` or ``//`` comment's words: markers, the leading
    ``*`` of each line and the common indentation removed."""
    if comment.startswith("//"):
        lines = [line.strip().removeprefix("//") for line in comment.splitlines()]
        return textwrap.dedent("\n".join(lines)).strip()
    body = comment.removeprefix("/*").removesuffix("*/")
    body = body.removeprefix("*") if not body.startswith("*/") else body
    lines = []
    for line in body.splitlines():
        stripped = line.lstrip()
        if stripped.startswith("*"):
            line = stripped[1:]
            line = line[1:] if line.startswith(" ") else line
        lines.append(line)
    return textwrap.dedent("\n".join(lines)).strip()


def preceding_comment(node: Node) -> str:
    """The words of the comment(s) written right before ``node`` (a doc comment): one
    block comment, or a run of line comments."""
    raw = node.parent
    if raw is None:
        return ""
    siblings = raw.children
    index = next((i for i, c in enumerate(siblings) if c == node), -1)
    comments: list[Node] = []
    for sibling in reversed(siblings[:index] if index > 0 else []):
        if not sibling.extra:
            break
        if comments and not (sibling.text.startswith("//") and comments[0].text.startswith("//")):
            break
        comments.insert(0, sibling)
        if not sibling.text.startswith("//"):
            break
    return comment_text("\n".join(c.text for c in comments)) if comments else ""
