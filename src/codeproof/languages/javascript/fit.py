"""A ``node:test`` file fitted to what the project's modules declare: a declared function
or class the tests use without binding it, from a module the file does not require, is
required from that module.

js-calculator at ``639a211``: the designed tests of ``calc.js`` called ``tokenize`` (the
dependency ``tokenizer.js`` declares it) without requiring it, so they failed with
"tokenize is not defined" for every draft. The module under test needs nothing here: the
test fixer requires it (:func:`~codeproof.languages.javascript.tidy.fix_tests`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath

from codeproof.languages.javascript.requires import NAME_KINDS, binds, require_lines
from codeproof.languages.reading import Declared
from codeproof.languages.syntax import Tree, parse


def fit_tests(source: str, declared: Sequence[Declared]) -> str:
    """``source`` requiring the declared names it uses unbound (see the module doc)."""
    tree = parse("javascript", source)
    required = _required(tree)
    nodes = [n for n in tree.nodes() if n.kind in NAME_KINDS]
    bound = {n.text for n in nodes if binds(n)}
    wanted: dict[str, list[str]] = {}
    for name in sorted({n.text for n in nodes if n.kind == "identifier"} - bound):
        owners = [d.module for d in declared if d.declares(name)]
        if len(owners) == 1 and owners[0] not in required:
            wanted.setdefault(owners[0], []).append(name)
    return require_lines(wanted) + source if wanted else source


def _required(tree: Tree) -> set[str]:
    """The stems of the project files the file requires (``./calc`` -> ``calc``)."""
    out = set()
    for call in tree.calls({"require"}):
        ok, target = call.args[0].value() if len(call.args) == 1 else (False, None)
        if ok and isinstance(target, str) and target.startswith("./"):
            out.add(PurePosixPath(target).name.removesuffix(".js"))
    return out
