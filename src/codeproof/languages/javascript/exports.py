"""A CommonJS module that exports one class or function, made to answer both common
ways of requiring it.

The test designer and the programmer never see each other's work, and each picks one
of two shapes: ``module.exports = Thermostat`` (required as
``const Thermostat = require('./thermostat')``) or ``module.exports = { Thermostat }``
(required as ``const { Thermostat } = require('./thermostat')``). When the two differ,
every test fails on its first line with "Thermostat is not a constructor" (a thermostat
request: all 4 drafts; one-call runs of js-order-flow), whatever the code does.

A module whose only export is one class or function of its own therefore ends with
``module.exports = Object.assign(Thermostat, module.exports, { Thermostat })``: the
exports are the class itself, carrying its name (and any name it was exported under) as
a property, so both requires bind the class and
``require('./thermostat').Thermostat`` still works.
"""

from __future__ import annotations

from codeproof.languages.syntax import Node, Tree, parse

_FUNCTION_OWN = frozenset({"name", "length", "prototype", "caller", "arguments"})
"""Properties every function already has (some read-only): never assigned over."""


def _class_value(declaration: Node, name: str) -> bool:
    """Whether a ``const/let/var`` declaration binds ``name`` to a class expression."""
    return any(
        d.kind == "variable_declarator"
        and (bound := d.field("name")) is not None
        and bound.text == name
        and (value := d.field("value")) is not None
        and value.kind == "class"
        for d in declaration.named_children
    )


def _callables(tree: Tree) -> set[str]:
    """The top-level classes and functions the module declares, including
    ``const Name = class {...}`` and ``const name = (...) => ...``."""
    return {
        d.name
        for d in tree.declarations()
        if d.top_level
        and not d.owner
        and (
            d.kind in ("class", "function")
            or (d.kind == "variable" and _class_value(d.node, d.name))
        )
    }


def answers_both(tree: Tree) -> bool:
    """Whether the module ends its exports with the line :func:`both_shapes` adds."""
    for node in tree.nodes():
        if node.kind != "assignment_expression":
            continue
        left, right = node.field("left"), node.field("right")
        arguments = right.field("arguments") if right is not None else None
        if (
            left is not None
            and left.text == "module.exports"
            and right is not None
            and right.kind == "call_expression"
            and (function := right.field("function")) is not None
            and function.text == "Object.assign"
            and arguments is not None
            and [a.text for a in arguments.named_children][1:2] == ["module.exports"]
        ):
            return True
    return False


def _is_esm(tree: Tree) -> bool:
    return any(node.kind == "export_statement" for node in tree.nodes())


def both_shapes(source: str) -> str:
    """``source`` ending with ``module.exports = Object.assign(X, module.exports, { X })`` when
    its one CommonJS export is its own class or function ``X`` (see the module's doc);
    unchanged otherwise, and when it already ends so."""
    tree = parse("javascript", source)
    locals_ = {e.local for e in tree.exports()}
    if len(locals_) != 1 or _is_esm(tree) or answers_both(tree):
        return source
    (name,) = locals_
    if name is None or name in _FUNCTION_OWN or name not in _callables(tree):
        return source
    return (
        source.rstrip()
        + f"\n\nmodule.exports = Object.assign({name}, module.exports, {{ {name} }});\n"
    )
