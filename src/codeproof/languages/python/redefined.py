"""A module fitted to its dependencies: copies of their classes and functions replaced
by imports of the real ones, and their names used without an import imported.

py-inventory-report at ``ec04028``: four of seven drafts of ``report.py`` began with their
own ``class Inventory``, a copy of ``store.py``'s with other attribute names. The designed
tests imported ``Inventory`` from ``store`` and then ``from report import *``, so the copy
shadowed the real class and the tests proved ``to_csv`` against a class the user never
gets; the user's ``to_csv(store.Inventory())`` then read attributes that do not exist.
The dependency is built and tested already: a top-level public class or function of the
draft named like one of a dependency's becomes ``from <dependency> import <name>``.

A dependency's name the draft uses but never binds (no import, assignment, parameter or
definition of it anywhere) is imported too (js-cart at ``639a211``: ``cart.js`` called
``formatPrice`` without requiring ``pricing.js``; the same slip in Python is a
``NameError``).

Only public top-level names (not ``_private``, not ``main``) of dependencies that parse
are taken, and never a name the module's own interface declares: an own request at
``84f9536`` stated ``describe`` for ``reading.py``, the chosen ``temperature.py`` defined
a ``describe`` too, and ``reading.py``'s own became ``from temperature import describe``,
the other module's function, which failed every test of it. A draft that does not parse
comes back as it was.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Mapping
from pathlib import PurePosixPath

from codeproof.languages.python.bindings import after_imports, unbound_names

_DEFINITIONS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
_KEEP = frozenset({"main"})


def defined_names(source: str) -> list[str]:
    """The public classes and functions ``source`` defines at the top level."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [
        node.name
        for node in tree.body
        if isinstance(node, _DEFINITIONS)
        and not node.name.startswith("_")
        and node.name not in _KEEP
    ]


def import_dependencies(
    source: str, path: str, dependencies: Mapping[str, str], own: Collection[str] = ()
) -> str:
    """``source`` without its copies of the dependencies' names, importing them instead;
    the names in ``own`` (what the module's interface declares) stay its own."""
    owner: dict[str, str] = {}
    for dep_path, content in dependencies.items():
        if dep_path.endswith(".py") and dep_path != path:
            for name in defined_names(content):
                if name not in own:
                    owner.setdefault(name, PurePosixPath(dep_path).stem)
    if not owner:
        return source
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    copies = [n for n in tree.body if isinstance(n, _DEFINITIONS) and n.name in owner]
    unbound = sorted(unbound_names(tree) & owner.keys())
    if not copies and not unbound:
        return source
    lines = source.splitlines(keepends=True)
    for node in reversed(copies):
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
        del lines[first : node.end_lineno]
        while first < len(lines) and not lines[first].strip() and _blank_before(lines, first) >= 2:
            del lines[first]
    names = [n.name for n in copies] + unbound
    imports = "".join(f"from {owner[name]} import {name}\n" for name in names)
    at = after_imports(tree)
    return "".join(lines[:at]) + imports + "".join(lines[at:])


def _blank_before(lines: list[str], index: int) -> int:
    count = 0
    while index - count > 0 and not lines[index - count - 1].strip():
        count += 1
    return count
