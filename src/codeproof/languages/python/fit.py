"""A pytest file fitted to what the project's modules declare.

py-inventory-report at ``90d0f27``: the interface said ``store`` declares ``class
Inventory`` (with ``add``, ``remove``, ``quantity``, ``total_value``) and ``report``
declares the function ``to_csv(inventory)``. The worked example's test imported
``Inventory`` from ``report`` (an unknown module's import pointed at the module under
test) and called ``inv.to_csv()``: no draft that builds what the user asked for could pass
it, and it was the user's word. Two readings the interface rules out are fixed here:

* a name imported from a project module that does not declare it, where exactly one other
  project module does: imported from that one;
* ``obj.f(...)`` where ``obj`` was made by a project class whose declared methods do not
  include ``f`` and ``f`` is a declared top-level function (of one module, and no method
  or loose name of any): ``f(obj, ...)``, imported where the file does not already;
* a name the file uses but binds nowhere, declared by exactly one project module that the
  file does not import from: imported from it (js-calculator's tests of ``calc`` called
  the dependency's ``tokenize`` without requiring it; the Python slip is a ``NameError``);
* a name imported from a project module that does not declare it, which only a module
  built apart from this one declares (``elsewhere``): not imported, so the tests using it
  fail alone, not the whole file at its import (session 40: the tests of
  ``temperature`` imported ``describe``, which ``reading`` builds).

Nothing else changes: a file that does not parse, or names nothing of the kind, comes back
as it was.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Sequence

from codeproof.languages.python.bindings import after_imports, unbound_names
from codeproof.languages.reading import Declared, sole_owner

Edit = tuple[int, int, str]
"""A byte span of the file's UTF-8 text and what replaces it."""


def fit_tests(
    source: str, declared: Sequence[Declared], elsewhere: Collection[str] = frozenset()
) -> str:
    """``source`` with imports and calls fitted to ``declared`` (see the module doc)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    data = source.encode()
    starts = _line_starts(data)
    edits = _import_edits(tree, declared, starts, elsewhere)
    calls, needed = _call_edits(tree, declared, starts, data)
    edits += calls
    owner = {name: d.module for d in declared for name in d.functions}
    missing = sorted(needed - _imported(tree, declared))
    for name in sorted(unbound_names(tree) - needed - set(missing)):
        module = sole_owner(name, declared)
        if module is not None and module not in _imported_modules(tree):
            missing.append(name)
            owner[name] = module
    if not edits and not missing:
        return source
    if missing:
        lines = "".join(f"from {owner[name]} import {name}\n" for name in missing)
        after = after_imports(tree)
        at = starts[after] if after < len(starts) else len(data)
        edits.append((at, at, lines if data[:at].endswith(b"\n") or not at else "\n" + lines))
    for start, end, text in sorted(_outermost(edits), reverse=True):
        data = data[:start] + text.encode() + data[end:]
    return data.decode()


def _outermost(edits: list[Edit]) -> list[Edit]:
    """The edits not inside another one (a call fitted inside a fitted call's arguments
    is left as written: the outer edit copies the arguments' original text)."""
    return [
        e
        for e in edits
        if not any(o is not e and o[0] <= e[0] and e[1] <= o[1] and o[:2] != e[:2] for o in edits)
    ]


def _line_starts(data: bytes) -> list[int]:
    """Byte offset of each line's start (index 0 is line 1)."""
    starts = [0]
    for index, byte in enumerate(data):
        if byte == 0x0A:
            starts.append(index + 1)
    return starts


def _span(node: ast.AST, starts: list[int]) -> tuple[int, int]:
    line, col = node.lineno, node.col_offset  # type: ignore[attr-defined]
    end_line, end_col = node.end_lineno, node.end_col_offset  # type: ignore[attr-defined]
    return starts[line - 1] + col, starts[end_line - 1] + end_col


# -- imports ----------------------------------------------------------------------------


def _import_edits(
    tree: ast.Module, declared: Sequence[Declared], starts: list[int], elsewhere: Collection[str]
) -> list[Edit]:
    by_module = {d.module: d for d in declared}
    edits: list[Edit] = []
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or node.level or node.module not in by_module:
            continue
        here = by_module[node.module]
        kept: list[ast.alias] = []
        moved: dict[str, list[ast.alias]] = {}
        for alias in node.names:
            owner = sole_owner(alias.name, declared)
            if alias.name == "*" or here.declares(alias.name):
                kept.append(alias)
            elif owner is not None:
                moved.setdefault(owner, []).append(alias)
            elif alias.name not in elsewhere:
                kept.append(alias)
        if len(kept) == len(node.names):
            continue
        groups = ([(node.module, kept)] if kept else []) + list(moved.items())
        text = "; ".join(ast.unparse(ast.ImportFrom(m, names, 0)) for m, names in groups)
        start, end = _span(node, starts)
        edits.append((start, end, text))
    return edits


def _imported(tree: ast.Module, declared: Sequence[Declared]) -> set[str]:
    """The declared names the file can call bare: imported by name, or by a star import
    of the module declaring them."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and not node.level:
            for alias in node.names:
                if alias.name == "*":
                    names |= {f for d in declared if d.module == node.module for f in d.functions}
                else:
                    names.add(alias.asname or alias.name)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
    return names


def _imported_modules(tree: ast.Module) -> set[str]:
    """The modules the file imports from or imports (any form)."""
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
    return out


# -- functions called as methods --------------------------------------------------------


def _call_edits(
    tree: ast.Module, declared: Sequence[Declared], starts: list[int], data: bytes
) -> tuple[list[Edit], set[str]]:
    classes = {name: methods for d in declared for name, methods in d.classes.items()}
    functions = _plain_functions(declared)
    edits: list[Edit] = []
    needed: set[str] = set()
    for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))]:
        made = _made_by_classes(scope, classes)
        for call in _calls(scope):
            func = call.func
            if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
                continue
            made_by = made.get(func.value.id)
            if made_by is None or func.attr in classes[made_by] or func.attr not in functions:
                continue
            if not classes[made_by]:
                continue  # the interface lists no methods of the class: cannot tell
            start, end = _span(call, starts)
            edits.append((start, end, _as_function(call, func, data, starts)))
            needed.add(func.attr)
    return edits, needed


def _plain_functions(declared: Sequence[Declared]) -> set[str]:
    """Top-level functions declared by exactly one module and as nothing else anywhere."""
    methods = {m for d in declared for ms in d.classes.values() for m in ms}
    loose = {n for d in declared for n in d.loose}
    counts: dict[str, int] = {}
    for d in declared:
        for name in d.functions:
            counts[name] = counts.get(name, 0) + 1
    return {n for n, c in counts.items() if c == 1 and n not in methods | loose}


def _made_by_classes(scope: ast.AST, classes: dict[str, frozenset[str]]) -> dict[str, str]:
    """Variables of ``scope`` (its own statements, not nested functions) bound once, to a
    call of a declared class: variable -> class."""
    made: dict[str, str] = {}
    bound: dict[str, int] = {}
    for node in _own_nodes(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bound[target.id] = bound.get(target.id, 0) + 1
                    value = node.value
                    if (
                        isinstance(value, ast.Call)
                        and isinstance(value.func, ast.Name)
                        and value.func.id in classes
                    ):
                        made[target.id] = value.func.id
    return {name: cls for name, cls in made.items() if bound[name] == 1}


def _own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of ``scope`` outside the functions and classes nested in it."""
    out: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _calls(scope: ast.AST) -> list[ast.Call]:
    return [n for n in _own_nodes(scope) if isinstance(n, ast.Call)]


def _as_function(call: ast.Call, func: ast.Attribute, data: bytes, starts: list[int]) -> str:
    """``f(obj, <the call's own arguments as written>)`` for ``obj.f(...)``."""
    assert isinstance(func.value, ast.Name)
    parts = [func.value.id]
    for arg in [*call.args, *call.keywords]:
        start, end = _span(arg, starts)
        parts.append(data[start:end].decode())
    return f"{func.attr}({', '.join(parts)})"
