"""How users and models write values: Python literals, JSON and JSON-like JavaScript
literals, read as Python values (no language package is needed to read them)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from codeproof.languages.syntax import parse, parse_expression


def js_value(text: str) -> tuple[bool, object]:
    """A JavaScript literal (JSON, single quotes, bare keys, escapes...) as a Python value,
    read with the syntax facade; ``undefined`` reads as the string ``"undefined"`` (what a
    probe prints for it)."""
    if text.strip() == "undefined":
        return True, "undefined"
    node = parse_expression("javascript", text)
    return node.value() if node is not None else (False, None)


def leading_literal(text: str) -> str | None:
    """The bracketed literal ``text`` starts with (``[1, "]"]`` of ``[1, "]"] for...``),
    its extent read with the Python grammar (whose brackets and quotes cover JSON's)."""
    closer = {"[": "]", "{": "}"}.get(text[:1])
    ends = [
        node.end
        for node in parse("python", text).nodes()
        if closer and node.start == 0 and node.named and node.text.endswith(closer)
    ]
    return text[: min(ends)] if ends else None


def leading_call(text: str) -> str | None:
    """The call ``text`` starts with (``f(1, ")")`` of ``f(1, ")") returns 2``), its extent
    read with the Python grammar (whose brackets and quotes cover JSON's and most calls)."""
    ends = [
        node.end
        for node in parse("python", text).nodes()
        if node.start == 0 and node.kind == "call" and node.text.endswith(")")
    ]
    return text[: min(ends)] if ends else None


def literal_value(text: str) -> tuple[bool, object]:
    """A Python or JSON-like JavaScript literal as a value; ``(False, None)`` if neither."""
    try:
        return True, ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return js_value(text)


ARROW = re.compile(
    r"\s*(?:===|==>|=>|->|➞|→|==|\bshould return\b|\breturns\b|\bgives\b)\s*", re.IGNORECASE
)
"""What separates an example's call from its result."""


_CALL = re.compile(r"[A-Za-z_$][\w$]*\s*\(")


def split_example(example: str) -> tuple[str, str] | None:
    """``(call, expected)`` of a ``call -> expected`` example (a ``>>>`` prompt dropped)."""
    parts = ARROW.split(example.strip(), maxsplit=1)
    if len(parts) != 2:
        return None
    call = parts[0].strip().removeprefix(">>>").strip()
    expected = parts[1].strip().rstrip(".;").strip()
    return (call, expected) if call and expected else None


def first_call(text: str) -> tuple[str, str] | None:
    """``(function, call text)`` of the first call with arguments in ``text``.

    ``new Solution().f(1)`` gives ``("f", "f(1)")``; calls without arguments are skipped.
    """
    for match in _CALL.finditer(text):
        depth = 0
        for i in range(match.end() - 1, len(text)):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            if depth == 0:
                call = text[match.start() : i + 1]
                if not re.sub(r"\s+", "", call).endswith("()"):
                    return match.group(0)[:-1].strip(), call
                break
    return None


_RAISES = re.compile(r"^raises\s+(?P<error>[A-Za-z_$][\w$]*)$")


def raised_error(expected: str) -> str | None:
    """The error an example expects (``raises ValueError`` gives ``ValueError``), or
    ``None`` when it expects a value."""
    found = _RAISES.match(expected.strip())
    return found.group("error") if found else None


def raised_output(output: str) -> str | None:
    """The error a probe's output says was raised (``!ValueError`` gives ``ValueError``),
    or ``None`` for a value."""
    return output[1:] if output.startswith("!") else None


def raised_note(check: str, error: str) -> str:
    """Why ``check`` (``f(1) == 2``), expecting a value, was set aside: the agreeing
    candidates raise an error the request states."""
    return f"{check} (the agreeing candidates raise {error}, as the request states)"


@dataclass(frozen=True)
class Raised:
    """The expected outcome of an example that states an error: the error's class name."""

    error: str

    def met_by(self, output: str) -> bool:
        """Whether a probe's output (``!ClassName`` for a thrown error) is that error; the
        generic names (``Exception``, ``Error``...) accept any thrown error."""
        if not output.startswith("!"):
            return False
        return output[1:] == self.error or self.error in _GENERIC_ERRORS


_GENERIC_ERRORS = frozenset({"Exception", "Error", "RuntimeException", "Throwable"})


def needed(name: str, uses: Callable[[str], Iterable[str]]) -> list[str]:
    """``name`` and every name it ``uses``, transitively, each once: ``name`` first, then
    in the order found (the top-level helpers a spliced function takes with it)."""
    order, queue = [name], [name]
    while queue:
        for used in uses(queue.pop()):
            if used not in order:
                order.append(used)
                queue.append(used)
    return order
