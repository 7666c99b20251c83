"""Mutated probe inputs: more inputs on which to tell tied candidates apart.

Candidates that return the same outputs on every input of the tests and the input
designer are indistinguishable to the choice, which then falls back to the first (greedy)
candidate. Yet they often differ just beside those inputs: a day past the end of a
month, one element more, a negative number. Type-aware mutation (as in EvalPlus) makes
such inputs without a model: each literal argument of a probe call is changed a little
(a number by one, a string by one character, a list by one element) and the call is
probed again.

A mutated input may break the task's preconditions (a negative count where the task
promises a positive one), where candidates may rightly differ. So mutated inputs only
break ties (:func:`codeproof.choosing.selection.judge`), and they are probed in a run of
their own, which cannot cost a candidate its outputs on the real inputs.

Python calls are mutated through their AST, JavaScript calls whose arguments are
JSON-like literals through JSON, and Java calls token by token (a mutated Java call that
does not compile against a candidate is dropped for it, like any probe call).
"""

from __future__ import annotations

import ast
import json
import math
import random
import re
import zlib
from collections.abc import Callable, Iterator, Sequence

from codeproof.choosing.examples import top_level_args
from codeproof.languages.tidy import JS_STRING, balanced_span

MUTANTS = 24
"""Mutated calls per module (taken in turn from each probe call)."""

MAX_CALL = 300
"""Mutated calls longer than this (characters) are not used."""

Value = object
Mutator = Callable[[str], list[str]]
"""``call -> its mutated calls`` for one language (empty when it cannot be mutated)."""


def _number(x: float, rng: random.Random) -> list[float]:
    if isinstance(x, int):
        return [x + 1, x - 1, -x, 0]
    if not math.isfinite(x):
        return []
    return [x + 0.5, x - 0.5, -x, 0.0, float(round(x))]


def _string(s: str, rng: random.Random) -> list[str]:
    if not s:
        return ["a", " "]
    i = rng.randrange(len(s))
    out = [s[:i] + s[i + 1 :], s[:i] + s[i] + s[i:], s + s[-1], "", s.swapcase()]
    if len(s) > 1:
        j = rng.randrange(len(s) - 1)
        out.append(s[:j] + s[j + 1] + s[j] + s[j + 2 :])
    digits = [k for k, c in enumerate(s) if c.isdigit()]
    if digits:
        k = rng.choice(digits)
        out.append(s[:k] + str((int(s[k]) + rng.randrange(1, 10)) % 10) + s[k + 1 :])
    return out


def _sequence(xs: list[Value], rng: random.Random) -> list[list[Value]]:
    if not xs:
        return []
    i = rng.randrange(len(xs))
    out = [[], xs[:i] + xs[i + 1 :], [*xs[:i], xs[i], *xs[i:]], xs[::-1]]
    out += [[*xs[:i], m, *xs[i + 1 :]] for m in _values(xs[i], rng)[:2]]
    return out


def _values(value: Value, rng: random.Random) -> list[Value]:
    """Small changes of one literal value (same type, or empty)."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int | float):
        return list(_number(value, rng))
    if isinstance(value, str):
        return list(_string(value, rng))
    if isinstance(value, list):
        return list(_sequence(value, rng))
    if isinstance(value, tuple):
        return [tuple(v) for v in _sequence(list(value), rng)]
    if isinstance(value, dict) and value:
        key = rng.choice(list(value))
        return [{}, {k: v for k, v in value.items() if k != key}]
    return []


def _variants(args: Sequence[Value], rng: random.Random) -> Iterator[list[Value]]:
    for i, arg in enumerate(args):
        for changed in _values(arg, rng):
            yield [*args[:i], changed, *args[i + 1 :]]


def _rng(call: str) -> random.Random:
    return random.Random(zlib.crc32(call.encode()))


def python_mutants(call: str) -> list[str]:
    """Mutated copies of a Python call ``f(literal, ..., k=literal)``."""
    try:
        node = ast.parse(call, mode="eval").body
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            return []
        args = [ast.literal_eval(a) for a in node.args]
        names = [k.arg for k in node.keywords]
        if None in names:
            return []
        args += [ast.literal_eval(k.value) for k in node.keywords]
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return []
    positional = len(node.args)
    rng, out = _rng(call), []
    for variant in _variants(args, rng):
        parts = [repr(v) for v in variant[:positional]]
        parts += [f"{k}={v!r}" for k, v in zip(names, variant[positional:], strict=True)]
        out.append(f"{node.func.id}({', '.join(parts)})")
    return out


_JS_CALL = re.compile(r"([A-Za-z_$][\w$]*)\s*\(")


def _js_string(literal: str) -> str:
    body = literal[1:-1]
    if "\\" in body:
        raise ValueError("escapes are not mutated")
    return json.dumps(body)


def javascript_mutants(call: str) -> list[str]:
    """Mutated copies of a JavaScript call whose arguments are JSON-like literals."""
    match = _JS_CALL.match(call)
    args_text = balanced_span(call, match.end() - 1) if match else None
    if match is None or args_text is None or match.end() - 1 + len(args_text) != len(call):
        return []
    try:
        as_json = JS_STRING.sub(lambda m: _js_string(m.group(0)), args_text[1:-1])
        args = json.loads(f"[{as_json}]")
    except ValueError:
        return []
    out = []
    for variant in _variants(args, _rng(call)):
        try:
            rendered = ", ".join(json.dumps(v, allow_nan=False) for v in variant)
        except ValueError:
            continue
        out.append(f"{match.group(1)}({rendered})")
    return out


_JAVA_TOKEN = re.compile(
    r'(?P<string>"(?:[^"\\\n]|\\.)*")'
    r"|(?P<char>'(?:[^'\\]|\\.)')"
    r"|(?P<bool>\b(?:true|false)\b)"
    r"|(?P<number>(?<![\w$.])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?[LlFfDd]?(?![\w.]))"
)
_JAVA_LIST = re.compile(
    r"(?:\bArrays\.asList|\bList\.of)\s*(?=\()|\bnew\s+[\w$.<>]+\s*\[\s*\]\s*(?=\{)"
)


def _java_number(token: str, rng: random.Random) -> list[str]:
    body = token.rstrip("LlFfDd")
    suffix = token[len(body) :]
    if re.fullmatch(r"-?\d+", body):
        return [f"{v}{suffix}" for v in _number(int(body), rng)]
    return [f"{v!r}{suffix}" for v in _number(float(body), rng)]


def _java_token(kind: str, token: str, rng: random.Random) -> list[str]:
    if kind == "number":
        return _java_number(token, rng)
    if kind == "bool":
        return ["false" if token == "true" else "true"]
    if kind == "string" and "\\" not in token:
        return [json.dumps(v, ensure_ascii=False) for v in _string(token[1:-1], rng)]
    return []


def _java_lists(args: str, rng: random.Random) -> Iterator[str]:
    for match in _JAVA_LIST.finditer(args):
        span = balanced_span(args, match.end())
        if span is None:
            continue
        head, tail = args[: match.end() + 1], args[match.end() + len(span) - 1 :]
        items = top_level_args(f"({span[1:-1]})")  # a list's ( ) or an array's { }
        if not items:
            continue
        i = rng.randrange(len(items))
        for changed in (items[:i] + items[i + 1 :], [*items[:i], items[i], *items[i:]]):
            yield head + ", ".join(changed) + tail


def java_mutants(call: str) -> list[str]:
    """Mutated copies of a Java probe call (``f(args)`` or ``new C(args).f(args)``):
    its own arguments' number, string and boolean literals, and its lists' elements."""
    opening = next(
        (
            m.end() - 1
            for m in _JS_CALL.finditer(call)
            if not call[: m.start()].rstrip().endswith("new")
            and (span := balanced_span(call, m.end() - 1)) is not None
            and m.end() - 1 + len(span) == len(call)
        ),
        None,
    )
    if opening is None:
        return []
    head, args = call[:opening], call[opening:]
    rng, out = _rng(call), []
    for token in _JAVA_TOKEN.finditer(args):
        kind = token.lastgroup or ""
        for changed in _java_token(kind, token.group(), rng):
            out.append(head + args[: token.start()] + changed + args[token.end() :])
    out += [head + changed for changed in _java_lists(args, rng)]
    return out


MUTATORS: dict[str, Mutator] = {
    "python": python_mutants,
    "javascript": javascript_mutants,
    "java": java_mutants,
}
"""Languages whose probe calls can be mutated."""


def mutants(language: str, calls: Sequence[str], limit: int = MUTANTS) -> list[str]:
    """Up to ``limit`` new calls, taken in turn from each call's shuffled mutants."""
    mutate = MUTATORS.get(language)
    if mutate is None or limit <= 0:
        return []
    seen = set(calls)
    pools = []
    for call in calls:
        pool = [m for m in dict.fromkeys(mutate(call)) if len(m) <= MAX_CALL]
        _rng(call).shuffle(pool)
        pools.append(pool)
    out: list[str] = []
    for turn in range(max((len(p) for p in pools), default=0)):
        for pool in pools:
            if turn < len(pool) and pool[turn] not in seen and len(out) < limit:
                seen.add(pool[turn])
                out.append(pool[turn])
    return out
