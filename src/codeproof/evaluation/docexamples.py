"""The examples a prompt's docstring states, as ``call -> expected`` lines.

Docstrings write examples in many notations; each one read here becomes an acceptance
example of the task's spec, which the pipeline turns into protected tests
(:mod:`codeproof.choosing.examples`). Reading one wrongly would hold every candidate to
a wrong test, so a notation is only read where its call and result are unambiguous:

* doctest: ``>>> f(1)`` with the result on the next line, or ``>>> f(1) == 2`` alone;
* arrows: ``f(1) -> 2`` (also ``=>``, ``==>``, ``➞``, ``→``, ``==``, "returns",
  "should return", optionally after ``#``). A worked result (``-> 19 - 5 - 6 = 8``) keeps
  its final value, and a remark in parentheses after the result is dropped;
* named inputs: ``For lst = [1, 2] the output should be 5``, and ``Input: grid = [[1]],
  k = 3`` (or one ``name : value`` per line) followed by ``Output: [1]``. The names are
  matched to the signature's parameters; an input that matches none drops the example.

A bare ``f(1) = 2`` is not read: docstrings use it for definitions (``tri(4) = 3``
defining a sequence whose function returns a list).
"""

from __future__ import annotations

import re

from codeproof.languages.clike import top_level_args
from codeproof.languages.values import literal_value, split_example

ARROWS = re.compile(r"\s*(?:==>|=>|➞|->|==|returns|should return|→)\s*")
"""An arrow between a call and its result, as the spec's examples are written."""

_COMMENTED_ARROW = re.compile(r"\s*#\s*(?===>|=>|->|➞|→)")
_WORKED = re.compile(r"^[\d\s.+\-*/%()]+=\s*(.+)$")
_REMARK = re.compile(r"^(.+?)\s*\([^()]*\)\s*$")
_FOR = re.compile(r"^for\s+(.+?),?\s+the output (?:should be|is)\s+(.+?)\.?$", re.IGNORECASE)
_INPUT = re.compile(r"^input\s*:\s*(.*)$", re.IGNORECASE)
_OUTPUT = re.compile(r"^output\s*:\s*(.+)$", re.IGNORECASE)
_NAME = re.compile(r"[A-Za-z_$][\w$]*")


def parameters(signature: str) -> list[str]:
    """The parameter names of a Python, JavaScript or Java signature, in order."""
    if "(" not in signature or ")" not in signature:
        return []
    head = signature[: signature.rindex(")") + 1]
    while re.search(r"<[^<>]*>", head):  # Java generics: Map<String, Integer> m
        head = re.sub(r"<[^<>]*>", "", head)
    names = []
    for part in top_level_args(head):
        name = part.split("=", 1)[0].split(":", 1)[0].strip()
        found = _NAME.findall(name)
        if found and not name.startswith("*"):
            names.append(found[-1])
    return names


def examples_of(docstring: str, entry_point: str, params: list[str] | None = None) -> list[str]:
    """``call -> expected`` lines from a docstring, in the order they are stated."""
    lines = [line.strip() for line in docstring.splitlines()]
    out: list[str] = []
    for i, text in enumerate(lines):
        example: str | None = None
        if text.startswith(">>>"):
            example = _doctest(text[3:].strip(), lines[i + 1] if i + 1 < len(lines) else "")
        elif f"{entry_point}(" in text and ARROWS.search(text):
            example = _arrow(text.removeprefix("assert ").strip())
        elif params and (found := _FOR.match(text)):
            example = _named(entry_point, params, _assignments([found.group(1)]), found.group(2))
        elif params and (found := _INPUT.match(text)):
            example = _input_block(entry_point, params, found.group(1), lines[i + 1 :])
        if example:
            out.append(example)
    return out


def _doctest(call: str, next_line: str) -> str | None:
    if next_line and not next_line.startswith(">>>"):
        return f"{call} -> {next_line}"
    return _arrow(call) if ARROWS.search(call) else None


def _arrow(text: str) -> str | None:
    split = split_example(_COMMENTED_ARROW.sub(" ", text))
    if split is None:
        return text
    call, expected = split
    return f"{call} -> {_result(expected)}"


def _result(expected: str) -> str:
    """The stated value of ``expected``, without its working or a remark after it."""
    if literal_value(expected)[0]:
        return expected
    for pattern in (_WORKED, _REMARK):
        found = pattern.match(expected)
        if found and literal_value(found.group(1).strip().rstrip("."))[0]:
            return found.group(1).strip().rstrip(".")
    return expected


def _assignments(parts: list[str]) -> list[tuple[str, str]]:
    """Leading ``name = value`` (or ``name : value``) items; prose after them ends the list."""
    pairs: list[tuple[str, str]] = []
    for part in parts:
        for item in top_level_args(f"({part})"):
            found = re.match(r"^([A-Za-z_$][\w$]*)\s*[=:]\s*(.+)$", item)
            if not found or not literal_value(found.group(2).strip())[0]:
                return pairs
            pairs.append((found.group(1), found.group(2).strip()))
    return pairs


def _named(entry_point: str, params: list[str], given: list[tuple[str, str]], result: str) -> str:
    """``f(values in parameter order) -> result``, or empty when the names do not fit."""
    values: dict[str, str] = {}
    for name, value in given:
        matches = [p for p in params if p == name] or [
            p for p in params if name.endswith(f"_{p}") or name.startswith(f"{p}_")
        ]
        if len(matches) != 1 or matches[0] in values:
            return ""
        values[matches[0]] = value
    result = _result(result.strip())
    if set(values) != set(params) or not literal_value(result)[0]:
        return ""
    return f"{entry_point}({', '.join(values[p] for p in params)}) -> {result}"


def _input_block(entry_point: str, params: list[str], first: str, rest: list[str]) -> str:
    """An ``Input:`` block (on its line, or one item per following line) and its ``Output:``."""
    parts = [first] if first else []
    for line in rest:
        found = _OUTPUT.match(line)
        if found:
            return _named(entry_point, params, _assignments(parts), found.group(1))
        if not line or _INPUT.match(line):
            return ""
        parts.append(line)
    return ""
