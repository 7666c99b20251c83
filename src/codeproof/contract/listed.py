"""Errors stated for a list of inputs: "from_roman raises ValueError for anything that is
not a valid numeral, for example "IIII", "VX", "IC" or an empty string".

Each input listed becomes the example ``from_roman("IIII") -> raises ValueError``, like a
call written out with its error. Read only where nothing is ambiguous: the sentence names
exactly one of the module's functions, that function takes exactly one parameter, the
sentence states the error it raises (or throws), and every item of the list after "for
example", "for instance", "such as" or "e.g." is a literal ("an empty string" reads as
``""``). A list that mixes literals with words ("such as 5 or a letter") states nothing.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from codeproof.contract.said import value_at

_SENTENCE = re.compile(r"(?<=[.!?])(?<!e\.g\.)(?<!i\.e\.)\s+(?=[A-Z`'\"(]|[a-z_]\w*\b)|\n\s*\n")
_ERROR = re.compile(r"\b(?i:raises?|throws?)\s+(?:an?\s+)?`?(?P<error>[A-Z][\w$]*)`?")
_PASSIVE = re.compile(
    r"`?\b(?P<error>[A-Z][\w$]*(?:Error|Exception))`?\s+(?:(?:is|should|must|will)\s+)?(?:be\s+)?"
    r"(?:raised|thrown)"
)
_LIST = re.compile(r"\b(?:for example|for instance|such as|e\.g\.)[:,]?[ \t]+", re.IGNORECASE)
_EMPTY = re.compile(r"^(?:an?|the)\s+empty\s+string\b", re.IGNORECASE)
_SEPARATOR = re.compile(r"^\s*(?:,\s*(?:(?:or|and)\s+)?|\s(?:or|and)\s+)")
_END = re.compile(r"^\s*(?:$|[.;:)!?])")


def listed_errors(text: str, names: Collection[str], params: Mapping[str, list[str]]) -> list[str]:
    """``call -> raises Error`` for each literal input a sentence of ``text`` lists as one
    that makes a one-parameter function of ``names`` raise (see the module's docstring)."""
    out: list[str] = []
    for sentence in _SENTENCE.split(text):
        named = [n for n in names if re.search(rf"(?<![\w.$]){re.escape(n)}(?![\w$])", sentence)]
        error = _ERROR.search(sentence)
        listed = _LIST.search(sentence)
        if len(named) != 1 or error is None or listed is None:
            continue
        if len(params.get(named[0]) or []) != 1:
            continue
        items = _items(sentence[listed.end() :])
        out += [f"{named[0]}({item}) -> raises {error.group('error')}" for item in items]
    return list(dict.fromkeys(out))


def stated_errors(text: str) -> frozenset[str]:
    """The error classes ``text`` says are raised or thrown ("raises ValueError for ...",
    "throws a RangeError", "a ValueError is raised")."""
    found = [*_ERROR.finditer(text), *_PASSIVE.finditer(text)]
    return frozenset(match.group("error") for match in found)


def _items(rest: str) -> list[str]:
    """The literals of a list (``"IIII", "VX" or an empty string``), or none when an
    item is not a literal."""
    items: list[str] = []
    while True:
        empty = _EMPTY.match(rest)
        value = '""' if empty else value_at(rest)
        if value is None:
            return []
        items.append(value)
        rest = rest[empty.end() :] if empty else rest[rest.index(value) + len(value) :]
        separator = _SEPARATOR.match(rest)
        if separator is None:
            return items if _END.match(rest) else []
        rest = rest[separator.end() :]
