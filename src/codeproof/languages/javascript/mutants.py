"""TODO-DOC"""

from __future__ import annotations

import json

from codeproof.languages.clike import CALL_NAME, JS_STRING, balanced_span
from codeproof.languages.mutate import seeded_rng, variants


def _jsstring_variants(literal: str) -> str:
    body = literal[1:-1]
    if "\\" in body:
        raise ValueError("escapes are not mutated")
    return json.dumps(body)


def javascript_mutants(call: str) -> list[str]:
    """Mutated copies of a JavaScript call whose arguments are JSON-like literals."""
    match = CALL_NAME.match(call)
    args_text = balanced_span(call, match.end() - 1) if match else None
    if match is None or args_text is None or match.end() - 1 + len(args_text) != len(call):
        return []
    try:
        as_json = JS_STRING.sub(lambda m: _jsstring_variants(m.group(0)), args_text[1:-1])
        args = json.loads(f"[{as_json}]")
    except ValueError:
        return []
    out = []
    for variant in variants(args, seeded_rng(call)):
        try:
            rendered = ", ".join(json.dumps(v, allow_nan=False) for v in variant)
        except ValueError:
            continue
        out.append(f"{match.group(1)}({rendered})")
    return out
