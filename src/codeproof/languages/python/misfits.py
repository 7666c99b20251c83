"""Set aside test checks whose calls cannot bind to the interface every candidate defines.

A small model's test sometimes calls the function with the wrong arguments (``add()``
for ``add(a, b)``, a keyword the function does not take). Such a check fails for every
candidate with a ``TypeError`` before any code runs, so no repair of the code can make
it pass without breaking the interface. A check is a *misfit* when its call of an
interface function cannot bind to that function's signature in every candidate that
defines it, and, when the module's declared interface can be read as a Python signature,
cannot bind to that one either (a test that matches the declared interface is never set
aside). Misfitting ``assert`` statements are replaced by a note; a test function that
calls a misfit outside its assertions (``result = add()``) cannot pass and is removed,
and so is one left without checks. ``pytest.raises`` blocks are kept: a test may expect
the ``TypeError``. Python only; the user's own examples are never edited.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Collection, Iterable, Mapping, Sequence

from codeproof.languages.python.pytest_edit import (
    FunctionNode,
    Verdict,
    edit_tests,
    expected_raises,
)
from codeproof.languages.python.tests import is_test_path
from codeproof.languages.syntax import Node, parse

Signatures = dict[str, list[ast.arguments | None]]
"""Function name -> its parameters, once per candidate defining it (``None``: unknown)."""


def _defs(source: str) -> dict[str, ast.arguments | None]:
    """Module-level functions -> parameters (``None``: decorated or defined twice)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    found: dict[str, ast.arguments | None] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            plain = not node.decorator_list and node.name not in found
            found[node.name] = node.args if plain else None
    return found


def _declared(interface: str, name: str) -> ast.arguments | None:
    """``name``'s parameters as the declared interface writes them, if that parses."""
    span = next(
        (
            node.text
            for node in parse("python", interface).nodes()
            if node.kind in ("argument_list", "parameters") and _named(node, name)
        ),
        None,
    )
    if span is None:
        return None
    try:
        tree = ast.parse(f"def {name}{span}: pass")
    except SyntaxError:
        return None
    node = tree.body[0]
    return node.args if isinstance(node, ast.FunctionDef) else None


def _named(brackets: Node, name: str) -> bool:
    """Whether the bracketed list follows ``name`` itself (``add(``, not ``obj.add(``)."""
    siblings = brackets.parent.children if brackets.parent is not None else []
    before = siblings[: siblings.index(brackets)] if brackets in siblings else []
    return bool(before) and before[-1].kind == "identifier" and before[-1].text == name


def binds(call: ast.Call, params: ast.arguments) -> bool:
    """Whether ``call``'s arguments bind to ``params`` (unknown, e.g. ``*args``: True)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return True
    positional = [*params.posonlyargs, *params.args]
    names = [p.arg for p in positional]
    given = len(call.args)
    if given > len(positional) and params.vararg is None:
        return False
    bound = set(names[:given])
    posonly = {p.arg for p in params.posonlyargs}
    keywords = {p.arg for p in params.kwonlyargs}
    for keyword in call.keywords:
        name = keyword.arg or ""
        if name in bound or (name in posonly and params.kwarg is None):
            return False
        if name not in names and name not in keywords and params.kwarg is None:
            return False
        bound.add(name)
    required = names[: len(names) - len(params.defaults)]
    kwonly = zip(params.kwonlyargs, params.kw_defaults, strict=True)
    required += [p.arg for p, default in kwonly if default is None]
    return all(name in bound for name in required)


def _render(name: str, params: ast.arguments) -> str:
    return f"{name}({ast.unparse(params)})"


class Misfits:
    """Which calls of the interface functions bind to no candidate's signature."""

    def __init__(
        self, candidates: Sequence[Mapping[str, str]], names: Iterable[str], interface: str
    ) -> None:
        self.signatures: Signatures = {}
        for files in candidates:
            defined: dict[str, ast.arguments | None] = {}
            for path, source in files.items():
                if path.endswith(".py") and not is_test_path(path):
                    defined.update(_defs(source))
            for name in names:
                if name in defined:
                    self.signatures.setdefault(name, []).append(defined[name])
        self.texts = {json.dumps(sorted(f.items())) for f in candidates}
        self.declared = {name: _declared(interface, name) for name in self.signatures}

    def why(self, call: ast.Call) -> str | None:
        """``"add() does not fit add(a, b)"`` when ``call`` is a misfit, else ``None``."""
        if not isinstance(call.func, ast.Name) or call.func.id not in self.signatures:
            return None
        name, defined = call.func.id, self.signatures[call.func.id]
        known = [params for params in defined if params is not None]
        if len(known) < len(defined) or any(binds(call, params) for params in known):
            return None
        declared = self.declared.get(name)
        if declared is None and len(self.texts) < 2:
            return None  # one opinion only, and nothing declared to confirm it
        if declared is not None and binds(call, declared):
            return None
        shape = _render(name, declared or known[0])
        return f"{ast.unparse(call)} does not fit {shape}"


def _misfit_in(node: ast.AST, misfits: Misfits) -> str | None:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and (why := misfits.why(sub)):
            return why
    return None


Scan = tuple[list[tuple[ast.Assert, str]], int, str | None]


def _scan(function: ast.FunctionDef | ast.AsyncFunctionDef, misfits: Misfits) -> Scan:
    """(misfitting asserts with notes, checks in all, a misfit outside any assert)."""
    found: list[tuple[ast.Assert, str]] = []
    checks, stray = 0, None
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Assert):
            checks += 1
            if why := _misfit_in(node, misfits):
                found.append((node, why))
        elif isinstance(node, ast.With) and expected_raises(node):
            checks += 1
        elif isinstance(node, ast.stmt) and _has_body(node):
            children = list(ast.iter_child_nodes(node))
            pending += [c for c in children if isinstance(c, ast.stmt)]
            pending += [s for c in children if isinstance(c, ast.ExceptHandler) for s in c.body]
            heads = [c for c in children if isinstance(c, ast.expr | ast.withitem)]
            stray = stray or next(filter(None, (_misfit_in(c, misfits) for c in heads)), None)
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            stray = stray or _misfit_in(node, misfits)
    return found, checks, stray


_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)


def _has_body(node: ast.stmt) -> bool:
    return isinstance(node, _COMPOUND)


def _verdict(function: FunctionNode, misfits: Misfits) -> Verdict | None:
    found, checks, stray = _scan(function, misfits)
    if not found and not stray:
        return None
    if stray or len(found) == checks:
        return Verdict([f"removed, {stray or found[0][1]}"], remove=True)
    aside = sorted(found, key=lambda f: f[0].lineno)
    return Verdict([why for _, why in aside], aside)


def edit_python_file(source: str, misfits: Misfits) -> tuple[str, list[str]]:
    """The test source without its misfitting checks, and one note per check set aside."""
    return edit_tests(source, lambda function: _verdict(function, misfits))


def edit(
    tests: dict[str, str],
    candidates: Sequence[Mapping[str, str]],
    names: Collection[str],
    interface: str,
    protected: Collection[str],
) -> tuple[dict[str, str], list[str]]:
    """The test files without the checks whose calls fit no candidate (``protected`` kept).

    Returns:
        The test files, and one ``path::note`` per check set aside or test removed.
    """
    misfits = Misfits(candidates, names, interface)
    if not misfits.signatures:
        return tests, []
    edited, notes = dict(tests), []
    for path, source in tests.items():
        if path in protected or not is_test_path(path):
            continue
        new, found = edit_python_file(source, misfits)
        if found:
            edited[path] = new
            notes += [f"{path}::{note}" for note in found]
    return edited, notes
