"""One function of a Python draft put in another draft (:mod:`codeproof.choosing.recombining`).

py-durations at ``68dd645``: of seven drafts, one met the three stated examples of
``parse_duration`` and missed one of ``format_duration``; another met all three of
``format_duration`` and missed those of ``parse_duration``. No draft met all six. The
first draft with the second's ``format_duration`` does: :func:`splice` writes it, and the
choice by execution decides whether it is kept.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator

from codeproof.languages.values import needed

Bindings = dict[str, ast.stmt]


def splice(base: dict[str, str], donor: dict[str, str], name: str) -> dict[str, str] | None:
    """``base`` (source files, no tests) with its top-level function ``name`` replaced by
    ``donor``'s, and the top-level helpers, constants and imports that function uses and
    ``base`` lacks.

    None where either lacks the function in one source file, where a helper it uses is
    defined differently in ``base`` (the two drafts disagree on it), or where nothing
    changes."""
    path = _defining(base, name)
    source = _defining(donor, name)
    if path is None or source is None:
        return None
    code, other = base[path], donor[source]
    ours, theirs = _bindings(ast.parse(code)), _bindings(ast.parse(other))
    taken = needed(name, lambda n: (u for u in _used(theirs[n]) if u in theirs))
    if _conflicts(ours, theirs, taken, code, other):
        return None
    lines = code.splitlines(keepends=True)
    start, end = _span(ours[name])
    replaced = _segment(other, theirs[name])
    # dependencies first: a constant another helper reads as the module loads
    added = list(
        dict.fromkeys(_segment(other, theirs[n]) for n in reversed(taken) if n not in ours)
    )
    if replaced == _segment(code, ours[name]) and not added:
        return None  # the same function
    imports = [text for text in added if text.startswith(("import ", "from "))]
    rest = [text for text in added if text not in imports]
    head = _after_preamble(code)
    new = "".join([*lines[:head], *(f"{t}\n" for t in imports), *lines[head:start]])
    new += replaced + "\n" + "".join(lines[end:])
    new = new.rstrip("\n") + "\n" + "".join(f"\n\n{t}\n" for t in rest)
    try:
        ast.parse(new)
    except (SyntaxError, ValueError):
        return None
    return {**base, path: new}


def _defining(files: dict[str, str], name: str) -> str | None:
    """The one Python file defining the top-level function ``name`` (the caller passes
    source files, no tests)."""
    found = []
    for path, text in files.items():
        if not path.endswith(".py"):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        node = _bindings(tree).get(name)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append(path)
    return found[0] if len(found) == 1 else None


def _bindings(tree: ast.Module) -> Bindings:
    """Top-level name -> the statement binding it (the first one)."""
    bound: Bindings = {}
    for node in tree.body:
        for name in _bound(node):
            bound.setdefault(name, node)
    return bound


def _bound(node: ast.stmt) -> Iterator[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield node.name
    elif isinstance(node, ast.Import | ast.ImportFrom):
        for alias in node.names:
            if alias.name != "*":
                yield (alias.asname or alias.name).split(".")[0]
    elif isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            yield from (n.id for n in ast.walk(target) if isinstance(n, ast.Name))


def _used(node: ast.stmt) -> list[str]:
    """The names ``node`` reads, each once, in the order of a walk (deterministic)."""
    return list(dict.fromkeys(n.id for n in ast.walk(node) if isinstance(n, ast.Name)))


def _conflicts(ours: Bindings, theirs: Bindings, taken: list[str], code: str, other: str) -> bool:
    """Whether a helper the function takes is defined otherwise in ``base`` (an import
    of the same name is the same module)."""
    for used in taken[1:]:
        mine = ours.get(used)
        if mine is None or isinstance(mine, ast.Import | ast.ImportFrom):
            continue
        if _segment(code, mine) != _segment(other, theirs[used]):
            return True
    return False


def _span(node: ast.stmt) -> tuple[int, int]:
    """0-based first line (decorators included) and end line (exclusive) of ``node``."""
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return first - 1, node.end_lineno or node.lineno


def _segment(text: str, node: ast.stmt) -> str:
    start, end = _span(node)
    return "".join(text.splitlines(keepends=True)[start:end]).rstrip("\n")


def _after_preamble(code: str) -> int:
    """The lines after which imports may go: a module docstring, ``__future__`` imports."""
    end = 0
    tree = ast.parse(code)
    for node in tree.body:
        docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        future = isinstance(node, ast.ImportFrom) and node.module == "__future__"
        if not ((docstring and end == 0) or future):
            break
        end = node.end_lineno or node.lineno
    return end


def calls_by_test(tests: dict[str, str], names: Collection[str]) -> dict[str, frozenset[str]]:
    """Test name (``file_stem.[Class.]test``, as reports name it) -> which of ``names``
    (the module's functions) the test calls."""
    wanted = set(names)
    found: dict[str, frozenset[str]] = {}
    for path, text in tests.items():
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        stem = path.rsplit("/", 1)[-1].removesuffix(".py")
        for prefix, node in _test_functions(tree.body, stem):
            called = {
                n.func.id
                for n in ast.walk(node)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            }
            found[f"{prefix}.{node.name}"] = frozenset(called & wanted)
    return found


def _test_functions(
    body: list[ast.stmt], prefix: str
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name.startswith("test"):
                yield prefix, node
        elif isinstance(node, ast.ClassDef):
            yield from _test_functions(node.body, f"{prefix}.{node.name}")
