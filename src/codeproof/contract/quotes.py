"""The user's string literals, put back where a model re-quoted them into broken code.

py-word-freq at ``68dd645``: the request states ``word_frequencies("Don't stop, DON'T!",
top=1) == [("don't", 2)]``; the analyst rewrote every example with single quotes,
``word_frequencies('Don't stop, DON'T!', top=1) == [('don't', 2)]``, which no language
reads. Every prompt showed the broken example, and the spec's example tests left it out.
A string the user wrote with one kind of quote because it holds the other is put back as
written wherever an example holds it re-quoted, when that makes the example parse.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from codeproof.languages.values import split_example

_STRING = re.compile(r""""[^"\n]*'[^"\n]*"|'[^'\n]*"[^'\n]*'""")
"""A one-line string literal holding the other kind of quote (``"don't"``)."""


def requoted(examples: Sequence[str], words: str) -> list[str]:
    """``examples``, each that does not parse with the user's literals of ``words`` put
    back (``'don't'`` -> ``"don't"``) where that makes it parse; others unchanged."""
    literals = sorted(set(_STRING.findall(words)), key=len, reverse=True)
    return [_fixed(example, literals) for example in examples]


def _fixed(example: str, literals: Sequence[str]) -> str:
    if _parses(example):
        return example
    fixed = example
    for literal in literals:
        swapped = _swap(literal[0]) + literal[1:-1] + _swap(literal[-1])
        fixed = fixed.replace(swapped, literal)
    return fixed if fixed != example and _parses(fixed) else example


def _swap(quote: str) -> str:
    return "'" if quote == '"' else '"'


def _parses(example: str) -> bool:
    """Whether the example's parts (the call and its result, or the whole) read as
    expressions."""
    parts = split_example(example) or (example,)
    try:
        for part in parts:
            ast.parse(part.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True
