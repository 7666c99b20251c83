"""The rules a request states in prose, and what it leaves open.

Each sentence of the user's words is a numbered rule (``R1``...): the test designer checks
them one by one and names the rule each test checks, so every check is traced to the
sentence it comes from (:func:`traced`). Where the request leaves the contract open (no
example of a result, nothing on invalid input), the intake asks before guessing
(:func:`open_questions`); with ``--yes`` the defaults taken are recorded as assumptions.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

_SENTENCE = re.compile(r"(?<=;)\s+|(?<=[.!?])\s+(?=[A-Z`'\"(\d]|[a-z_]\w*\()|\n\s*\n")
_RULE_REF = re.compile(r"\bR(\d{1,2})\b")
_ERRORS = re.compile(
    r"\b(?:raises?|throws?|errors?|exceptions?|invalid|empty|negative|null|none|reject\w*|"
    r"fails?|must not|cannot|never|at least|at most|only if|otherwise)\b",
    re.IGNORECASE,
)
_INVARIANT = re.compile(
    r"\b(?:for (?:every|all|any|each)\b|always\b|never\b|in (?:every|all|any) cases?\b|"
    r"regardless of\b|no matter\b|whatever the\b)",
    re.IGNORECASE,
)
"""Words that state what holds for every input (a property), not one example."""
MIN_WORDS = 3
"""A shorter fragment is not a rule ("Thanks.")."""


@dataclass(frozen=True)
class Rule:
    """One sentence of the user's words."""

    id: str
    text: str


_CODE_LINE = re.compile(
    r"^\s*(?:def |class |import |from |>>>|#|//|/\*|\*|@|public |private |static |"
    r"function |const |let |var |[}\])]|```)"
)
"""A line of code (a signature, an import, a doctest prompt, a fence), not a sentence."""


def rules(words: str) -> list[Rule]:
    """The user's sentences, numbered in order; lines of code (a prompt's signature, a
    doctest, a fence) are not rules."""
    lines = [line.replace('"""', "").replace("'''", "") for line in words.splitlines()]
    prose = "\n".join(
        "" if _CODE_LINE.match(line) or line.rstrip().endswith(("{", ":")) else line
        for line in lines
    )
    parts = [" ".join(p.split()) for p in _SENTENCE.split(prose) if p and p.strip()]
    kept = [p for p in parts if len(p.split()) >= MIN_WORDS]
    return [Rule(f"R{i}", text) for i, text in enumerate(kept, 1)]


def invariants(items: Sequence[Rule]) -> list[Rule]:
    """The rules that state what holds for every input ("never longer than 80 characters",
    "for any list the result is sorted"): each gets a property test. A rule about one
    case gets example tests only; a small model told to write property tests for every
    rule writes them for cases no rule states, often wrongly."""
    return [rule for rule in items if _INVARIANT.search(rule.text)]


def render(items: Sequence[Rule]) -> str:
    """The rules as prompt lines: ``R1: sentence``."""
    return "\n".join(f"{rule.id}: {rule.text}" for rule in items)


def traced(tests: Mapping[str, str], items: Sequence[Rule]) -> dict[str, int]:
    """How many test files' lines cite each rule (``# R2`` / ``// R2``): the rules the
    tests claim to check, by id (rules no test cites are absent)."""
    known = {rule.id for rule in items}
    counts: dict[str, int] = {}
    for content in tests.values():
        for line in content.splitlines():
            comment = line.split("#", 1)[1] if "#" in line else line.partition("//")[2]
            for number in _RULE_REF.findall(comment):
                rule = f"R{int(number)}"
                if rule in known:
                    counts[rule] = counts.get(rule, 0) + 1
    return counts


@dataclass(frozen=True)
class Gap:
    """Something the request leaves open: the question to ask, and what is assumed when
    nobody answers (``--yes``)."""

    question: str
    assumption: str


def open_questions(words: str, stated_examples: Sequence[str]) -> list[Gap]:
    """What the request leaves open, to ask before guessing: no example of a result, and
    nothing on invalid or empty input (at most two). An example that passes an empty
    value (``f([]) -> ""``) already says what empty input gives: then only invalid input
    is asked about."""
    gaps = []
    if not stated_examples:
        gaps.append(
            Gap(
                "Could you give one or two examples: an input and the exact result you "
                "expect (e.g. `f(...) -> ...`)?",
                "no example of a result was stated: results follow the most common reading "
                "of the request",
            )
        )
    if not _ERRORS.search(words):
        what = "invalid" if any(map(_empty_argument, stated_examples)) else "invalid or empty"
        gaps.append(
            Gap(
                f"What should happen with {what} input: return a value (which one?) or "
                "raise an error (which one?)?",
                f"nothing was said about {what} input: it is handled the way the "
                "language's standard library handles such input",
            )
        )
    return gaps


_PAIRS = {"(": ")", "[": "]", "{": "}"}


def _empty_argument(example: str) -> bool:
    """Whether the call of ``example`` (before its ``->``) passes an empty value: an empty
    string, list, tuple, dict or object literal among its arguments (read with Python's
    tokenizer, which reads the call notation of the three languages alike)."""
    depth, previous = 0, ""
    try:
        for token in tokenize.generate_tokens(io.StringIO(example).readline):
            text = token.string
            if token.type == tokenize.OP and text == "->" and depth == 0:
                return False
            if token.type == tokenize.STRING and depth >= 1 and _empty_string(text):
                return True
            if token.type == tokenize.OP and depth >= 2 and _PAIRS.get(previous) == text:
                return True
            depth += (text in _PAIRS) - (text in _PAIRS.values())
            previous = text
    except (tokenize.TokenError, SyntaxError):
        return False
    return False


def _empty_string(literal: str) -> bool:
    try:
        return ast.literal_eval(literal) in ("", b"")
    except (ValueError, SyntaxError):
        return False
