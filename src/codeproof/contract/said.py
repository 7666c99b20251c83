"""What a request says right after a call: the result it states (``f(2) returns 4``,
``f(2) -> 4``, ``f(-1) raises ValueError``), and whether the call is a step of a
scenario rather than an example of its own.

:func:`stated_in` keeps the examples whose result the user's own words state; the
readers of :mod:`codeproof.contract.examples` use :func:`value_at` and the patterns here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeproof.languages.values import (
    first_call,
    leading_call,
    leading_literal,
    literal_value,
    raised_error,
    split_example,
)

CONNECTOR = re.compile(
    r"^[`'\"]?[ \t]*(?:"
    r"(?:===|==>|=>|->|➞|→|==)"
    r"|(?:(?:it\s+|which\s+|that\s+)?(?:should\s+|must\s+|will\s+)?"
    r"(?:returns?|gives?|be|is|equals?|yields?|evaluates?\s+to|produces?|outputs?)\b)"
    r")[ \t]*`?",
    re.IGNORECASE,
)
"""What stands between a call and its stated result (``returns``, ``->``, ``==``...)."""

CLEAN_END = re.compile(r"^(?:[ \t]*(?:$|\n|[.,;:!?)\]}`'\"])|[ \t]+[A-Za-z(])")
"""What may follow a stated result: the end of the sentence or line, punctuation, a
next word or a remark in parentheses (not an operator: ``-> 19 - 5 - 6 = 8`` is working,
not a result)."""

RAISES = re.compile(
    r"^[`'\"]?\s*(?:,\s*)?(?:it\s+)?(?:should\s+|must\s+|will\s+)?"
    r"(?:raises?|throws?|raise|throw)\s+(?:an?\s+)?`?(?P<error>[A-Za-z_$][\w.$]*)`?",
    re.IGNORECASE,
)
"""``f(x) raises ValueError`` (also "throws", "should raise a ...")."""

SCALAR = re.compile(r"""'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|-?\d+(?:\.\d+)?(?:[eE]-?\d+)?\b|\w+""")


def value_at(text: str) -> str | None:
    """The literal ``text`` starts with (a bracketed one read whole), if it ends cleanly."""
    text = text.lstrip(" \t")
    if not text:
        return None
    if text[0] in "[{(":
        span = leading_literal(text)
        value = span if span is not None and literal_value(span)[0] else None
    else:
        token = SCALAR.match(text)
        value = token.group(0) if token else None
        if value is not None and value.endswith(".") and not literal_value(value)[0]:
            value = value[:-1]
        if value is not None and not literal_value(value)[0]:
            value = None
    if value is None or not CLEAN_END.match(text[len(value) :]):
        return None
    return value


def stated_in(examples: Sequence[str], text: str) -> list[str]:
    """The examples whose call ``text`` states with that result (the user's, not a model's).

    In the workflow the spec's examples are the analyst's: only those the user stated are
    ground truth; a model's invented example may contradict the request. The call must be
    written in ``text`` (spacing and quotes aside) and followed by its result: past words
    such as "returns" or an arrow, the literal stated there is compared by value (``{hi:
    2}`` for the user's ``{"hi": 2}``), or the error it raises. A call that is one step of
    a scenario ("after add(4), add(10) and undo(), score() is 4") states no result of its
    own, and neither does a call followed by anything but its result.
    """
    kept = []
    for example in examples:
        split = split_example(example)
        found = first_call(split[0]) if split else None
        if split and found and _said_result(text, found[1], split[1]):
            kept.append(example)
    return kept


def _said_result(text: str, call: str, expected: str) -> bool:
    """Whether some occurrence of ``call`` in ``text`` is followed by ``expected``."""
    error = raised_error(expected)
    ok, value = literal_value(expected)
    if error is None and not ok:
        return False
    for match in _written(call).finditer(text):
        if in_scenario(text, match.start()):
            continue
        rest = text[match.end() : match.end() + 200]
        raises = RAISES.match(rest)
        if raises:
            if error is not None and raises.group("error").rstrip(".").endswith(error):
                return True
            continue
        connector = CONNECTOR.match(rest) or _NEXT_LINE.match(rest)
        said = value_at(rest[connector.end() :]) if connector else None
        if error is None and said is not None and literal_value(said) == (True, value):
            return True
    return False


def _written(call: str) -> re.Pattern[str]:
    """``call`` as the user may write it: any spacing, either kind of quote."""
    parts = ["['\"]" if c in "'\"" else re.escape(c) for c in call if not c.isspace()]
    return re.compile(r"(?<![\w$])" + r"\s*".join(parts))


_NEXT_LINE = re.compile(r"[ \t]*\n[ \t]*(?!>>>)")
"""A doctest's result: alone on the line after the call."""
_SENTENCE_START = re.compile(r"(?:[.!?;:](?=\s)|\n)")
_STEP = re.compile(r"(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\s*\(")


def in_scenario(text: str, start: int) -> bool:
    """Whether the call at ``start`` is a step of a scenario: earlier in its sentence a
    call with literal (or no) arguments states no result of its own ("after add(4),
    add(10) and undo(), score() is 4"). A signature (``add(a, b)``) is not a step."""
    begin = max((m.end() for m in _SENTENCE_START.finditer(text, 0, start)), default=0)
    for match in _STEP.finditer(text, begin, start):
        call = leading_call(text[match.start() : start])
        if call is None:
            continue
        arguments = call[call.index("(") + 1 : -1]
        if arguments.strip() and not literal_value(f"[{arguments}]")[0]:
            continue  # a signature or a call on names, not a step
        rest = text[match.start() + len(call) : start]
        connector = CONNECTOR.match(rest)
        if RAISES.match(rest) is None and (
            connector is None or value_at(rest[connector.end() :]) is None
        ):
            return True
    return False
