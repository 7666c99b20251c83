"""A module's ``require`` of another module of the project, fitted to what that module
exports: ``const tokenize = require('./tokenizer')`` where ``tokenizer.js`` exports
``{ tokenize }`` binds the exports object, so calling ``tokenize(...)`` throws "tokenize
is not a function" (js-calculator: every test of ``calc.js``). It becomes
``const { tokenize } = require('./tokenizer')``. And a dependency's export the module
uses without binding it anywhere is required (js-cart at ``639a211``: ``cart.js``
called ``formatPrice`` without requiring ``pricing.js``, "formatPrice is not defined").
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import PurePosixPath

from codeproof.languages.javascript.exports import answers_both
from codeproof.languages.syntax import Node, Tree, parse
from codeproof.languages.syntax.edit import replace
from codeproof.languages.syntax.grammar import Call

_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})


def _object_exports(source: str) -> frozenset[str]:
    """The names a module exports as properties of its exports object (none when it
    exports one value as a whole: ``module.exports = tokenize``, unless it also carries
    its name: :func:`~.exports.both_shapes`)."""
    tree = parse("javascript", source)
    exports = tree.exports()
    if answers_both(tree):
        return frozenset(e.name for e in exports if e.local is not None)
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


def fit_requires(
    source: str, path: str, dependencies: Mapping[str, str], own: Collection[str] = ()
) -> str:
    """``source`` with each whole-module ``require`` of a dependency that exports the
    bound name as a property destructured (only when the name is never used as an
    object, so nothing that works changes), then requiring the dependencies' exports it
    uses unbound (:func:`_require_unbound`). No definition is replaced, so the module's
    ``own`` names (what its interface declares) need nothing more: they are accepted for
    the common signature only."""
    exported = {
        PurePosixPath(p).name.removesuffix(".js"): _object_exports(text)
        for p, text in dependencies.items()
        if p.endswith(".js")
    }
    if not exported:
        return source
    return _require_unbound(_destructured(source, exported), exported)


def local_requires(tree: Tree) -> list[tuple[Call, str]]:
    """Each ``require('./name')`` of the file, with the required file's stem."""
    out = []
    for call in tree.calls({"require"}):
        ok, target = call.args[0].value() if len(call.args) == 1 else (False, None)
        if ok and isinstance(target, str) and target.startswith("./"):
            out.append((call, PurePosixPath(target).name.removesuffix(".js")))
    return out


def _destructured(source: str, exported: Mapping[str, frozenset[str]]) -> str:
    tree = parse("javascript", source)
    edits = []
    for call, stem in local_requires(tree):
        name = _bound_name(call.node)
        if name is None or name.text not in exported.get(stem, frozenset()):
            continue
        if not _as_object(tree, name.text):
            edits.append((name.start, name.end, f"{{ {name.text} }}"))
    return replace(source, edits) if edits else source


_PATTERNS = frozenset(
    {"object_pattern", "array_pattern", "pair_pattern", "rest_pattern", "assignment_pattern"}
)
_BINDS = {
    "variable_declarator": "name",
    "catch_clause": "parameter",
    "for_in_statement": "left",
    "arrow_function": "parameter",
    "assignment_expression": "left",
    "function_declaration": "name",
    "generator_function_declaration": "name",
    "function_expression": "name",
    "class_declaration": "name",
    "class": "name",
}
"""Node kind -> the field whose identifier (or pattern) it binds."""
NAME_KINDS = frozenset({"identifier", "shorthand_property_identifier_pattern"})


def binds(node: Node) -> bool:
    """Whether the identifier ``node`` is bound where it stands (declared, a parameter,
    assigned, imported), through any destructuring pattern around it."""
    child, parent = node, node.parent
    while parent is not None and parent.kind in _PATTERNS:
        if parent.kind == "assignment_pattern" and parent.field_name(child) != "left":
            return False  # a default value is a use
        child, parent = parent, parent.parent
    if parent is None:
        return False
    if parent.kind in ("formal_parameters", "import_specifier", "namespace_import"):
        return True
    if parent.kind == "import_clause":
        return True
    field = _BINDS.get(parent.kind)
    return field is not None and parent.field_name(child) == field


def unbound_identifiers(tree: Tree) -> set[str]:
    """The identifiers the file uses but binds nowhere (:func:`binds`), in any scope."""
    nodes = [n for n in tree.nodes() if n.kind in NAME_KINDS]
    bound = {n.text for n in nodes if binds(n)}
    return {n.text for n in nodes if n.kind == "identifier"} - bound


def _require_unbound(source: str, exported: Mapping[str, frozenset[str]]) -> str:
    """``source`` requiring each dependency's exports it uses but never binds."""
    owners: dict[str, list[str]] = {}
    for stem, exports in exported.items():
        for export in exports:
            owners.setdefault(export, []).append(stem)
    if not owners:
        return source
    tree = parse("javascript", source)
    wanted: dict[str, list[str]] = {}
    for name in sorted(unbound_identifiers(tree)):
        stems = owners.get(name, [])
        if len(stems) == 1:
            wanted.setdefault(stems[0], []).append(name)
    if not wanted:
        return source
    at = _after_directives(tree)
    return source[:at] + require_lines(wanted) + source[at:]


def require_lines(wanted: Mapping[str, Sequence[str]]) -> str:
    """``const { a, b } = require('./stem');`` lines, one per module stem, in order."""
    return "".join(
        f"const {{ {', '.join(names)} }} = require('./{stem}');\n"
        for stem, names in sorted(wanted.items())
    )


def _after_directives(tree: Tree) -> int:
    """Where a new statement may go first: after a leading ``'use strict'`` and comments."""
    at = 0
    for node in tree.root.children:
        if node.kind == "comment" or (
            node.kind == "expression_statement" and node.text.strip("'\"; ") == "use strict"
        ):
            at = node.end
            continue
        break
    return at if at == 0 else at + (1 if tree.text[at : at + 1] == "\n" else 0)
