"""Which names a Python module uses without binding them anywhere (a dependency's
function called without its import, a ``NameError`` waiting to happen)."""

from __future__ import annotations

import ast

_DEFINITIONS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def unbound_names(tree: ast.Module) -> set[str]:
    """The names ``tree`` reads but binds nowhere, in any scope (over-approximated: a
    name bound anywhere counts as bound everywhere; a star import binds nothing)."""
    return _used(tree) - _bound(tree)


def _used(tree: ast.Module) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _bound(tree: ast.Module) -> set[str]:
    """Every name the module binds anywhere, in any scope (over-approximated: a name
    bound anywhere is never imported)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.id)
        elif isinstance(node, _DEFINITIONS):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            names.update(node.names)
        elif isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            names.add(node.name)
    return names


def after_imports(tree: ast.Module) -> int:
    """The 0-based line just past the module's leading docstring and imports: where
    a new import goes."""
    line = 0
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            line = node.end_lineno or node.lineno
        elif not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            break
    return line
