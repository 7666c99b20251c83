"""Examples a request writes as test code, or as a call with its result in a comment.

* assertions: ``assertEquals(5, add(2, 3))`` (JUnit: the expected value first),
  ``assert.strictEqual(add(2, 3), 5)`` and its ``deepStrictEqual``, ``equal`` and
  ``deepEqual`` (Node: the actual value first), ``expect(add(2, 3)).toBe(5)`` and
  ``toEqual``/``toStrictEqual`` (Jest);
* errors asserted: ``assertThrows(X.class, () -> f(1))``, ``assert.throws(() => f(1), X)``,
  ``expect(() => f(1)).toThrow(X)``, ``with pytest.raises(X):`` over ``f(1)``;
* commented results: ``print(add(2, 3))  # 5``, ``console.log(add(2, 3)); // => 5``,
  ``add(2, 3) // returns 5``.

Each is read as ``call -> expected`` when the call has literal arguments and the
expected value is a literal, like every other notation of :mod:`.examples`. The
notations are each language's own (:class:`~codeproof.languages.notations.Notations`),
all of them read: a request may paste test code before it names its language.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from codeproof.contract.said import value_at
from codeproof.languages import registry
from codeproof.languages.clike import top_level_args
from codeproof.languages.notations import Notations, Written
from codeproof.languages.values import leading_call, literal_value

_LAMBDA = re.compile(r"^\([ \t]*\)[ \t]*(?:=>|->)[ \t]*\{?[ \t]*")
_ERROR = re.compile(r"^([A-Za-z_$][\w.$]*?)(?:\.class)?$")
_REACH = 400
"""How far past its start an assertion or a call is read."""


def _notations() -> Iterator[Notations]:
    yield from (language.notations for language in registry.languages())


def _found(text: str, kind: str) -> list[tuple[re.Match[str], Written]]:
    """Every check of ``kind`` (``assertions`` or ``raises``) that ``text`` writes in any
    language's notation, by where it starts."""
    found = [
        (match, written)
        for notations in _notations()
        for written in getattr(notations, kind)
        for match in written.head.finditer(text)
    ]
    return sorted(found, key=lambda item: item[0].start())


def _subject(text: str, match: re.Match[str], written: Written) -> tuple[str, str] | None:
    """``(subject, other)`` of a check: the call checked (or the function that must
    throw) and the expected value (or error)."""
    start = match.start("call")
    call = leading_call(text[start : start + _REACH])
    if call is None:
        return None
    args = top_level_args(call)
    if written.subject == "matcher":
        rest = text[start + len(call) : start + len(call) + _REACH]
        other = _matched(rest, written.matcher) if written.matcher else None
        return (args[0], other) if len(args) == 1 and other else None
    if len(args) not in (2, 3):
        return None
    return (args[1], args[0]) if written.subject == "second" else (args[0], args[1])


def asserted_examples(text: str, name: str) -> list[str]:
    """The examples of ``name`` that ``text`` writes as assertions, in order."""
    out = []
    for match, written in _found(text, "assertions"):
        pair = _subject(text, match, written)
        example = _example(name, *pair) if pair else None
        if example:
            out.append(example)
    return out


def raised_examples(text: str, name: str) -> list[str]:
    """The errors of ``name``'s calls that ``text`` writes as test code:
    ``assertThrows(IllegalArgumentException.class, () -> f(-1))`` (JUnit),
    ``assert.throws(() => f(-1), RangeError)`` (Node), ``expect(() => f(-1)).toThrow(RangeError)``
    (Jest) and ``with pytest.raises(ValueError):`` over a line ``f(-1)``."""
    out = []
    for match, written in _found(text, "raises"):
        if written.subject == "block":
            call = leading_call(text[match.end() : match.end() + _REACH])
            error = _ERROR.match(match.group("error"))
        else:
            pair = _subject(text, match, written)
            call = _body(pair[0]) if pair else None
            error = _ERROR.match(pair[1].strip()) if pair else None
        if call and error and _example(name, call, "0"):
            out.append(f"{call} -> raises {error.group(1).rsplit('.', 1)[-1]}")
    return out


def _body(function: str) -> str | None:
    """The one call a ``() => f(x)`` or ``() -> { f(x); }`` function makes."""
    head = _LAMBDA.match(function.strip())
    if head is None:
        return None
    call = leading_call(function.strip()[head.end() :])
    tail = function.strip()[head.end() + len(call) :] if call else ""
    return call if call and re.fullmatch(r"[ \t;]*\}?[ \t]*", tail) else None


@lru_cache(maxsize=8)
def _printed_or_commented(
    known: tuple[Notations, ...],
) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A call that prints its argument, ending where the argument starts; a comment
    after a call, ending where the result it states starts (compiled once for the
    languages ``known``)."""
    printers = {p for n in known for p in n.printers}
    comments = {n.line_comment for n in known if n.line_comment}
    wrapper = "|".join(re.escape(p) for p in sorted(printers, key=len, reverse=True))
    marker = "|".join(re.escape(c) for c in sorted(comments, key=len, reverse=True))
    return (
        re.compile(rf"(?<![\w$.])(?:{wrapper or '(?!)'})\([ \t]*$"),
        re.compile(
            rf"^[ \t]*;?[ \t]*(?:{marker or '(?!)'})[ \t]*"
            r"(?:(?:=>|->|==>|➞|→)|(?:returns?|prints?|gives?|outputs?|is)\b:?)?[ \t]*",
            re.IGNORECASE,
        ),
    )


def commented_examples(text: str, name: str) -> list[str]:
    """The examples of ``name`` that ``text`` writes as a call, printed or not, with
    its result in the comment after it."""
    wrapper, commented = _printed_or_commented(tuple(_notations()))
    out = []
    for match in re.finditer(rf"(?<![\w.$]){re.escape(name)}\s*\(", text):
        call = leading_call(text[match.start() : match.start() + _REACH])
        if call is None:
            continue
        before = text[: match.start()]
        rest = text[match.start() + len(call) : match.start() + len(call) + _REACH]
        if before.rstrip().endswith("("):
            if not wrapper.search(before) or not rest.lstrip(" \t").startswith(")"):
                continue  # an argument of some other call
            rest = rest.lstrip(" \t")[1:]
        comment = commented.match(rest)
        value = value_at(rest[comment.end() :]) if comment else None
        example = _example(name, call, value) if value else None
        if example:
            out.append(example)
    return out


def _matched(rest: str, pattern: re.Pattern[str]) -> str | None:
    """The one argument of the matcher (``.toBe(5)``, ``.toThrow(RangeError)``) that
    ``rest`` starts with."""
    matcher = pattern.match(rest)
    if matcher is None:
        return None
    call = leading_call(rest[matcher.start("matcher") :])
    args = top_level_args(call) if call else []
    return args[0] if len(args) == 1 else None


def _example(name: str, actual: str, expected: str) -> str | None:
    """``actual -> expected`` when ``actual`` is exactly a call of ``name`` with literal
    arguments and ``expected`` is a literal."""
    actual, expected = actual.strip(), expected.strip()
    if not re.match(rf"{re.escape(name)}\s*\(", actual) or leading_call(actual) != actual:
        return None
    inner = actual[actual.index("(") + 1 : -1]
    if not inner.strip() or not literal_value(f"[{inner}]")[0]:
        return None
    if not literal_value(expected)[0]:
        return None
    return f"{actual} -> {expected}"
