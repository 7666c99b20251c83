"""TODO-DOC"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator

from codeproof.languages.clike import CALL_NAME, balanced_span, top_level_args
from codeproof.languages.mutate import number_variants, seeded_rng, string_variants

_JAVA_TOKEN = re.compile(
    r'(?P<string>"(?:[^"\\\n]|\\.)*")'
    r"|(?P<char>'(?:[^'\\]|\\.)')"
    r"|(?P<bool>\b(?:true|false)\b)"
    r"|(?P<number>(?<![\w$.])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?[LlFfDd]?(?![\w.]))"
)


_JAVA_LIST = re.compile(
    r"(?:\bArrays\.asList|\bList\.of)\s*(?=\()|\bnew\s+[\w$.<>]+\s*\[\s*\]\s*(?=\{)"
)


def _javanumber_variants(token: str, rng: random.Random) -> list[str]:
    body = token.rstrip("LlFfDd")
    suffix = token[len(body) :]
    if re.fullmatch(r"-?\d+", body):
        return [f"{v}{suffix}" for v in number_variants(int(body), rng)]
    return [f"{v!r}{suffix}" for v in number_variants(float(body), rng)]


def _java_token(kind: str, token: str, rng: random.Random) -> list[str]:
    if kind == "number":
        return _javanumber_variants(token, rng)
    if kind == "bool":
        return ["false" if token == "true" else "true"]
    if kind == "string" and "\\" not in token:
        return [json.dumps(v, ensure_ascii=False) for v in string_variants(token[1:-1], rng)]
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
            for m in CALL_NAME.finditer(call)
            if not call[: m.start()].rstrip().endswith("new")
            and (span := balanced_span(call, m.end() - 1)) is not None
            and m.end() - 1 + len(span) == len(call)
        ),
        None,
    )
    if opening is None:
        return []
    head, args = call[:opening], call[opening:]
    rng, out = seeded_rng(call), []
    for token in _JAVA_TOKEN.finditer(args):
        kind = token.lastgroup or ""
        for changed in _java_token(kind, token.group(), rng):
            out.append(head + args[: token.start()] + changed + args[token.end() :])
    out += [head + changed for changed in _java_lists(args, rng)]
    return out
