"""The examples the user states, as ``call -> expected`` lines: in a docstring
(:func:`examples_of`) and in a request's free text (:func:`stated_examples`).

Docstrings write examples in many notations; each one read here becomes an acceptance
example of the task's spec, which the pipeline turns into protected tests
(:mod:`codeproof.choosing.examples`). Reading one wrongly would hold every candidate to
a wrong test, so a notation is only read where its call and result are unambiguous:

* doctest: ``>>> f(1)`` with the result on the next line, or ``>>> f(1) == 2`` alone;
* arrows: ``f(1) -> 2`` (also ``=>``, ``==>``, ``➞``, ``→``, ``==``, ``===``, "returns",
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
from collections.abc import Collection, Mapping, Sequence

from codeproof.contract.asserted import asserted_examples, commented_examples, raised_examples
from codeproof.contract.listed import listed_errors
from codeproof.contract.said import CONNECTOR, RAISES, in_scenario, value_at
from codeproof.contract.tables import table_examples
from codeproof.languages.clike import top_level_args
from codeproof.languages.values import (
    leading_call,
    literal_value,
    split_example,
)

ARROWS = re.compile(r"\s*(?:===|==>|=>|➞|->|==|returns|should return|→)\s*")
"""An arrow between a call and its result, as the spec's examples are written."""

_COMMENTED_ARROW = re.compile(r"\s*(?:#|//)\s*(?===>|=>|->|➞|→|returns\b)")
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


# -- examples stated in a request's free text -------------------------------------------


def stated_examples(
    text: str, names: Collection[str], params: Mapping[str, list[str]] | None = None
) -> list[str]:
    """Every example ``text`` states for a function called one of ``names``, as
    ``call -> expected`` (``call -> raises Error`` for stated errors), in the order stated.

    Read: a call followed by its result (``f(1) == 2``, ``assert f(1) == 2``, ``f(1) -> 2``,
    "f(1) returns 2", "f(1) should be 2"...), a call followed by an error it raises
    ("f(-1) raises ValueError"), inputs listed with the error they raise ("f raises
    ValueError for bad numerals, for example "IIII" or "VX"": :mod:`.listed`), the
    docstring notations of :func:`examples_of` line by line (``params``: the parameter
    names of each function, for "for x = 1 the output should be 2"), and tables of
    inputs and results of a one-parameter function (:mod:`.tables`).
    """
    found: list[str] = []
    lines = text.splitlines()
    names = list(dict.fromkeys(names))
    for name in names:
        found += _after_calls(text, name)
        found += _line_notations(lines, name, (params or {}).get(name))
        found += table_examples(lines, name, (params or {}).get(name), alone=len(names) == 1)
        found += asserted_examples(text, name) + commented_examples(text, name)
        found += raised_examples(text, name)
        if len(names) == 1 and set(_written_calls(text)) <= {name}:
            found += _for_inputs(text, name, (params or {}).get(name) or [])
    found += listed_errors(text, names, params or {})
    return list(dict.fromkeys(e for e in found if e))


_FOR_INPUT = re.compile(r"(?<![\w$])(?:for|given)[ \t]+(?=[\"'\[({\d-])", re.IGNORECASE)
_WITH = re.compile(r"^[ \t]+with[ \t]+(?:`?([A-Za-z_$][\w$]*)`?[ \t]+(?:=[ \t]*)?)")
_OUTPUT_IS = re.compile(
    r"^,?[ \t]+(?:the[ \t]+(?:output|result|answer)[ \t]+(?:should[ \t]+be|must[ \t]+be|is)"
    r"|it[ \t]+(?:should[ \t]+)?returns?)[ \t]+",
    re.IGNORECASE,
)
_WRITTEN_CALL = re.compile(r"(?<![\w.$])([A-Za-z_$][\w$]*)\(")


def _written_calls(text: str) -> list[str]:
    """The names ``text`` writes as calls (``name(`` without a space)."""
    return [n for n in _WRITTEN_CALL.findall(text) if n not in NOT_FUNCTIONS]


def _for_inputs(text: str, name: str, params: Sequence[str]) -> list[str]:
    """Examples stated by their input alone, for the request's only function: "For
    "Hello, World!" the output should be "hello-world"", also with a further argument
    named after the next parameter ("for "The quick brown fox" with maxLength 12 the
    output should be "the-quick"")."""
    out = []
    for match in _FOR_INPUT.finditer(text):
        rest = text[match.end() : match.end() + 300]
        first = value_at(rest)
        if first is None:
            continue
        args, rest = [first], rest[rest.index(first) + len(first) :]
        named = _WITH.match(rest)
        if named:
            value = value_at(rest[named.end() :])
            if value is None or params[1:2] != [named.group(1)]:
                continue  # an argument that is not the next parameter, or not a literal
            args.append(value)
            rest = rest[named.end() :]
            rest = rest[rest.index(value) + len(value) :]
        output = _OUTPUT_IS.match(rest)
        result = value_at(rest[output.end() :]) if output else None
        if result is not None:
            out.append(f"{name}({', '.join(args)}) -> {result}")
    return out


def stated_assertions(text: str, names: Collection[str]) -> list[str]:
    """The ``assert`` lines of ``text`` that call one of ``names`` inside another expression
    (``assert set(f(x)) == {1, 2}``, ``assert math.isclose(f(2), 0.5)``): no ``call ->
    expected`` reads them, so they are kept word for word, for a language that can run
    them as written (:attr:`codeproof.languages.base.Choosing.assertion_tests`)."""
    out = []
    for line in text.splitlines():
        statement = line.strip().removeprefix(">>>").strip().rstrip(";").strip()
        if not statement.startswith("assert "):
            continue
        called = [n for n in names if _calls(statement, n)]
        if called and not any(_after_calls(statement, n) for n in called):
            out.append(statement)
    return list(dict.fromkeys(out))


def _line_notations(lines: list[str], name: str, params: list[str] | None) -> list[str]:
    """Doctests of ``name`` and named-input lines ("For x = 1 the output should be 2",
    ``Input:``/``Output:``); arrows anywhere are read after each call instead."""
    stripped = [line.strip() for line in lines]
    out: list[str | None] = []
    for i, text in enumerate(stripped):
        if text.startswith(">>>") and f"{name}(" in text:
            out.append(_doctest(text[3:].strip(), stripped[i + 1] if i + 1 < len(lines) else ""))
        elif params and (found := _FOR.match(text)):
            out.append(_named(name, params, _assignments([found.group(1)]), found.group(2)))
        elif params and (found := _INPUT.match(text)):
            out.append(_input_block(name, params, found.group(1), stripped[i + 1 :]))
    return [e for e in out if e]


def _calls(text: str, name: str) -> list[tuple[int, int]]:
    """Spans of the calls of ``name`` with arguments in ``text`` (their extent read with a
    grammar, so brackets and quotes in the arguments do not end them)."""
    spans = []
    for match in re.finditer(rf"(?<![\w.$]){re.escape(name)}\s*\(", text):
        line_end = text.find("\n\n", match.start())
        call = leading_call(text[match.start() : None if line_end < 0 else line_end])
        if call is not None and call[call.index("(") + 1 : -1].strip():
            spans.append((match.start(), match.start() + len(call)))
    return spans


def _after_calls(text: str, name: str) -> list[str]:
    out = []
    for start, end in _calls(text, name):
        if text[:start].rstrip().endswith("("):
            continue  # the first argument of another call (``round(f(x), 2)``)
        call = text[start:end]
        if not literal_value(f"[{call[call.index('(') + 1 : -1]}]")[0]:
            continue  # arguments that are not literals (``f(x)``) state no example
        if in_scenario(text, start):
            continue  # a step after others: its result is the scenario's, not its own
        calls, rest = _with_siblings(call, text[end : end + 400], name)
        raises = RAISES.match(rest)
        if raises:
            error = raises.group("error").rstrip(".").rsplit(".", 1)[-1]
            out += [f"{c} -> raises {error}" for c in calls]
            continue
        connector = CONNECTOR.match(rest)
        result = rest[connector.end() :] if connector else ""
        error = _ERROR_RESULT.match(result) or RAISES.match(result) if connector else None
        if error:  # ``f(0) -> ValueError``, ``f(0) => throws RangeError``
            out += [f"{c} -> raises {error.group('error').rsplit('.', 1)[-1]}" for c in calls]
            continue
        value = value_at(result) if connector else None
        if value is not None:
            out += [f"{c} -> {value}" for c in calls]
    return out


_ERROR_RESULT = re.compile(
    r"^[ \t]*`?(?P<error>(?:[a-z_$][\w$]*\.)*[A-Z][\w$]*(?:Error|Exception))`?\b"
)


_SIBLING = re.compile(r"^[ \t]*(?:,[ \t]*)?(?:(?:and|or)[ \t]+)?")


def _with_siblings(call: str, rest: str, name: str) -> tuple[list[str], str]:
    """``call`` and the calls of ``name`` listed right after it, which share what
    follows them ("f(-1) and f(0) raise ValueError"), and the text after the last."""
    calls = [call]
    while True:
        gap = _SIBLING.match(rest)
        after = rest[gap.end() :] if gap else ""
        sibling = leading_call(after) if re.match(rf"{re.escape(name)}\s*\(", after) else None
        if sibling is None or not literal_value(f"[{sibling[sibling.index('(') + 1 : -1]}]")[0]:
            return calls, rest
        calls.append(sibling)
        rest = after[len(sibling) :]


NOT_FUNCTIONS = frozenset({"if", "for", "while", "return", "new", "class", "def", "function"})
