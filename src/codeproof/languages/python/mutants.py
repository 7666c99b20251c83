"""Mutations of a Python probe call (its literal arguments changed), whose outputs break
ties between drafts (:mod:`codeproof.choosing.mutation`)."""

from __future__ import annotations

import ast

from codeproof.languages.mutate import seeded_rng, variants


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
    rng, out = seeded_rng(call), []
    for variant in variants(args, rng):
        parts = [repr(v) for v in variant[:positional]]
        parts += [f"{k}={v!r}" for k, v in zip(names, variant[positional:], strict=True)]
        out.append(f"{node.func.id}({', '.join(parts)})")
    return out
