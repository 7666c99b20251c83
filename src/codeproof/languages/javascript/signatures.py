"""Public signatures and test examples of JavaScript, read with the syntax facade."""

from __future__ import annotations

from codeproof.languages.javascript.requires import local_requires
from codeproof.languages.reading import Example, Signature, case_example, inner_text
from codeproof.languages.syntax import Node, parse


def javascript_signatures(source: str, path: str) -> list[Signature]:
    """Top-level functions (declared, or assigned to a ``const``/``let``/``var``),
    functions defined where they are exported, and classes; only the exported ones when
    the module's exports are known."""
    tree = parse("javascript", source)
    exports = tree.exports()
    exported = {e.local or e.name for e in exports}
    out = [
        Signature(e.name, f"{e.name}({inner_text(parameters)})", "", path)
        for e in exports
        if e.local is None and e.node is not None and (parameters := _inline(e.node)) is not None
    ]
    for found in tree.declarations():
        if not found.top_level or found.owner or (exported and found.name not in exported):
            continue
        if found.kind == "function":
            signature = f"{found.name}({inner_text(found.parameters)})"
            out.append(Signature(found.name, signature, "", path))
        elif found.kind == "class":
            out.append(Signature(found.name, f"class {found.name}", "", path))
    return out


_FUNCTIONS = frozenset({"function_expression", "function", "arrow_function", "generator_function"})


def _inline(node: Node) -> Node | None:
    """The parameters of a function defined where it is exported: ``module.exports =
    { slugify(title) {...} }``, ``{ slugify: (title) => ... }``, ``exports.slugify =
    function (title) {...}`` (a draft defining its function so was read as lacking it)."""
    if node.kind == "method_definition":
        return node.field("parameters")
    value = node.field("value") if node.kind == "pair" else None
    if node.kind == "member_expression" and node.parent is not None:
        value = node.parent.field("right")
    if value is None or value.kind not in _FUNCTIONS:
        return None
    return value.field("parameters") or value.field("parameter")


def javascript_imports_of(source: str, module: str) -> list[str]:
    """The statements of ``source`` that require ``module``'s file (``const { f } =
    require('./m');``), as written."""
    found = []
    for call, stem in local_requires(parse("javascript", source)):
        statement = next((a for a in call.node.ancestors() if a.parent == a.tree.root), None)
        if stem == module and statement is not None:
            found.append(statement.text)
    return found


def javascript_examples(source: str) -> list[Example]:
    """Every ``test('name', ...)`` / ``it(...)`` body of a node:test file."""
    return [e for c in parse("javascript", source).tests() if (e := case_example(c))]
