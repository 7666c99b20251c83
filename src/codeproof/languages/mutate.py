"""Type-aware mutation of literal values (shared by every language's probe-call mutator)."""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Iterator, Sequence

Value = object


def number_variants(x: float, rng: random.Random) -> list[float]:
    if isinstance(x, int):
        return [x + 1, x - 1, -x, 0]
    if not math.isfinite(x):
        return []
    return [x + 0.5, x - 0.5, -x, 0.0, float(round(x))]


def string_variants(s: str, rng: random.Random) -> list[str]:
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
        return list(number_variants(value, rng))
    if isinstance(value, str):
        return list(string_variants(value, rng))
    if isinstance(value, list):
        return list(_sequence(value, rng))
    if isinstance(value, tuple):
        return [tuple(v) for v in _sequence(list(value), rng)]
    if isinstance(value, dict) and value:
        key = rng.choice(list(value))
        return [{}, {k: v for k, v in value.items() if k != key}]
    return []


def variants(args: Sequence[Value], rng: random.Random) -> Iterator[list[Value]]:
    for i, arg in enumerate(args):
        for changed in _values(arg, rng):
            yield [*args[:i], changed, *args[i + 1 :]]


def seeded_rng(call: str) -> random.Random:
    return random.Random(zlib.crc32(call.encode()))
