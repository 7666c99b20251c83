"""Mutated JavaScript probe calls: each literal argument changed a little, as JSON."""

from __future__ import annotations

import json

from codeproof.languages.mutate import seeded_rng, variants
from codeproof.languages.syntax import parse_expression


def javascript_mutants(call: str) -> list[str]:
    """Mutated copies of a JavaScript call ``f(literal, ...)`` (numbers, strings, booleans,
    ``null``, arrays and objects), written back as JSON."""
    node = parse_expression("javascript", call)
    parsed = node.as_call() if node is not None else None
    if parsed is None or parsed.receiver is not None:
        return []
    values = [arg.value() for arg in parsed.args]
    if not all(ok for ok, _ in values):
        return []
    out = []
    for variant in variants([value for _, value in values], seeded_rng(call)):
        try:
            rendered = ", ".join(json.dumps(v, allow_nan=False) for v in variant)
        except ValueError:
            continue
        out.append(f"{parsed.name}({rendered})")
    return out
