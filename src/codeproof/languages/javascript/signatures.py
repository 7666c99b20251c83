"""Public signatures and test examples of JavaScript, read with the syntax facade."""

from __future__ import annotations

from codeproof.languages.reading import Example, Signature, case_example, inner_text
from codeproof.languages.syntax import parse


def javascript_signatures(source: str, path: str) -> list[Signature]:
    """Top-level functions (declared, or assigned to a ``const``/``let``/``var``) and
    classes; only the exported ones when the module's exports are known."""
    tree = parse("javascript", source)
    exported = {e.local or e.name for e in tree.exports()}
    out = []
    for found in tree.declarations():
        if not found.top_level or found.owner or (exported and found.name not in exported):
            continue
        if found.kind == "function":
            signature = f"{found.name}({inner_text(found.parameters)})"
            out.append(Signature(found.name, signature, "", path))
        elif found.kind == "class":
            out.append(Signature(found.name, f"class {found.name}", "", path))
    return out


def javascript_examples(source: str) -> list[Example]:
    """Every ``test('name', ...)`` / ``it(...)`` body of a node:test file."""
    return [e for c in parse("javascript", source).tests() if (e := case_example(c))]
