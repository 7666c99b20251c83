"""A module's ``require`` of another module of the project, fitted to what that module
exports: ``const tokenize = require('./tokenizer')`` where ``tokenizer.js`` exports
``{ tokenize }`` binds the exports object, so calling ``tokenize(...)`` throws "tokenize
is not a function" (js-calculator: every test of ``calc.js``). It becomes
``const { tokenize } = require('./tokenizer')``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath

from codeproof.languages.syntax import Node, Tree, parse
from codeproof.languages.syntax.edit import replace

_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})


def _object_exports(source: str) -> frozenset[str]:
    """The names a module exports as properties of its exports object (none when it
    exports one value as a whole: ``module.exports = tokenize``)."""
    exports = parse("javascript", source).exports()
    whole = any(
        e.node is not None
        and e.node.kind != "member_expression"
        and e.node.parent is not None
        and e.node.parent.kind == "assignment_expression"
        for e in exports
    )
    return frozenset() if whole else frozenset(e.name for e in exports)


def _as_object(tree: Tree, name: str) -> bool:
    """Whether ``name`` is used as an object anywhere (``name.x``, ``name[x]``)."""
    return any(
        node.kind in ("member_expression", "subscript_expression")
        and (owner := node.field("object")) is not None
        and owner.kind == "identifier"
        and owner.text == name
        for node in tree.nodes()
    )


def _bound_name(call: Node) -> Node | None:
    """The identifier a ``const/let/var NAME = require(...)`` declaration binds."""
    declarator = call.parent
    if declarator is None or declarator.kind != "variable_declarator":
        return None
    statement = declarator.parent
    name = declarator.field("name")
    if statement is None or statement.kind not in _DECLARATIONS or name is None:
        return None
    return name if name.kind == "identifier" and declarator.field("value") == call else None


def fit_requires(source: str, path: str, dependencies: Mapping[str, str]) -> str:
    """``source`` with each whole-module ``require`` of a dependency that exports the
    bound name as a property destructured (only when the name is never used as an
    object, so nothing that works changes)."""
    exported = {
        PurePosixPath(p).name.removesuffix(".js"): _object_exports(text)
        for p, text in dependencies.items()
        if p.endswith(".js")
    }
    if not exported:
        return source
    tree = parse("javascript", source)
    edits = []
    for call in tree.calls({"require"}):
        ok, target = call.args[0].value() if len(call.args) == 1 else (False, None)
        if not ok or not isinstance(target, str) or not target.startswith("./"):
            continue
        stem = PurePosixPath(target).name.removesuffix(".js")
        name = _bound_name(call.node)
        if name is None or name.text not in exported.get(stem, frozenset()):
            continue
        if not _as_object(tree, name.text):
            edits.append((name.start, name.end, f"{{ {name.text} }}"))
    return replace(source, edits) if edits else source
