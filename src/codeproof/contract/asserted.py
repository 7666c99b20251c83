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
expected value is a literal, like every other notation of :mod:`.examples`.
"""

from __future__ import annotations

import re

from codeproof.contract.said import value_at
from codeproof.languages.clike import top_level_args
from codeproof.languages.values import leading_call, literal_value

_THROWS = re.compile(
    r"(?<![\w$.])(?:(?:Assertions|Assert)\.)?(?P<junit>assertThrows)\("
    r"|(?<![\w$.])assert\.(?P<node>throws)\("
    r"|(?<![\w$.])(?P<jest>expect)\([ \t]*\([ \t]*\)"
    r"|(?<![\w$.])pytest\.raises\([ \t]*(?P<pytest>[A-Za-z_][\w.]*)[ \t]*(?:,[^)\n]*)?\)"
    r"[ \t]*:[ \t]*\n[ \t]+"
)
_LAMBDA = re.compile(r"^\([ \t]*\)[ \t]*(?:=>|->)[ \t]*\{?[ \t]*")
_ERROR = re.compile(r"^([A-Za-z_$][\w.$]*?)(?:\.class)?$")
_ASSERTION = re.compile(
    r"(?<![\w$.])(?:(?:Assertions|Assert)\.)?(?P<junit>assert(?:Array)?Equals)\("
    r"|(?<![\w$.])assert\.(?P<node>strictEqual|deepStrictEqual|equal|deepEqual)\("
    r"|(?<![\w$.])(?P<jest>expect)\("
)
_MATCHER = re.compile(r"^[ \t]*\.[ \t]*(?P<matcher>to(?:Be|Equal|StrictEqual)\()")
_WRAPPER = re.compile(r"(?<![\w$.])(?:print|console\.log)\([ \t]*$")
_COMMENT = re.compile(
    r"^[ \t]*;?[ \t]*(?:#|//)[ \t]*"
    r"(?:(?:=>|->|==>|➞|→)|(?:returns?|prints?|gives?|outputs?|is)\b:?)?[ \t]*",
    re.IGNORECASE,
)
_REACH = 400
"""How far past its start an assertion or a call is read."""


def asserted_examples(text: str, name: str) -> list[str]:
    """The examples of ``name`` that ``text`` writes as assertions, in order."""
    out = []
    for match in _ASSERTION.finditer(text):
        kind = match.lastgroup
        start = match.start(kind or 0)
        call = leading_call(text[start : start + _REACH])
        if call is None:
            continue
        args = top_level_args(call)
        if kind == "jest":
            expected = _matched(text[start + len(call) : start + len(call) + _REACH])
            pair = (args[0], expected) if len(args) == 1 and expected else None
        elif kind == "junit":
            pair = (args[1], args[0]) if len(args) == 2 else None
        else:
            pair = (args[0], args[1]) if len(args) in (2, 3) else None
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
    for match in _THROWS.finditer(text):
        kind = match.lastgroup
        if kind == "pytest":
            call = leading_call(text[match.end() : match.end() + _REACH])
            error = _ERROR.match(match.group("pytest"))
        else:
            pair = _thrown(text, match.start(kind or 0), kind)
            call = _body(pair[0]) if pair else None
            error = _ERROR.match(pair[1].strip()) if pair else None
        if call and error and _example(name, call, "0"):
            out.append(f"{call} -> raises {error.group(1).rsplit('.', 1)[-1]}")
    return out


def _thrown(text: str, start: int, kind: str | None) -> tuple[str, str] | None:
    """``(function, error)`` of an assertion that a function throws."""
    call = leading_call(text[start : start + _REACH])
    args = top_level_args(call) if call else []
    if kind == "junit":
        return (args[1], args[0]) if len(args) in (2, 3) else None
    if kind == "node":
        return (args[0], args[1]) if len(args) in (2, 3) else None
    if call is None or len(args) != 1:
        return None
    rest = text[start + len(call) : start + len(call) + _REACH]
    matcher = re.match(r"^[ \t]*\.[ \t]*(toThrow\()", rest)
    thrown = leading_call(rest[matcher.start(1) :]) if matcher else None
    errors = top_level_args(thrown) if thrown else []
    return (args[0], errors[0]) if len(errors) == 1 else None


def _body(function: str) -> str | None:
    """The one call a ``() => f(x)`` or ``() -> { f(x); }`` function makes."""
    head = _LAMBDA.match(function.strip())
    if head is None:
        return None
    call = leading_call(function.strip()[head.end() :])
    tail = function.strip()[head.end() + len(call) :] if call else ""
    return call if call and re.fullmatch(r"[ \t;]*\}?[ \t]*", tail) else None


def commented_examples(text: str, name: str) -> list[str]:
    """The examples of ``name`` that ``text`` writes as a call, printed or not, with
    its result in the comment after it."""
    out = []
    for match in re.finditer(rf"(?<![\w.$]){re.escape(name)}\s*\(", text):
        call = leading_call(text[match.start() : match.start() + _REACH])
        if call is None:
            continue
        before = text[: match.start()]
        rest = text[match.start() + len(call) : match.start() + len(call) + _REACH]
        if before.rstrip().endswith("("):
            if not _WRAPPER.search(before) or not rest.lstrip(" \t").startswith(")"):
                continue  # an argument of some other call
            rest = rest.lstrip(" \t")[1:]
        comment = _COMMENT.match(rest)
        value = value_at(rest[comment.end() :]) if comment else None
        example = _example(name, call, value) if value else None
        if example:
            out.append(example)
    return out


def _matched(rest: str) -> str | None:
    """The expected value of a Jest matcher (``.toBe(5)``) that ``rest`` starts with."""
    matcher = _MATCHER.match(rest)
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
