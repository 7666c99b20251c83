"""A ``node:test`` file fitted to what the project's modules declare: a declared function
or class the tests use without binding it, from a module the file does not require, is
required from that module.

js-calculator at ``639a211``: the designed tests of ``calc.js`` called ``tokenize`` (the
dependency ``tokenizer.js`` declares it) without requiring it, so they failed with
"tokenize is not defined" for every draft. The module under test needs nothing here: the
test fixer requires it (:func:`~codeproof.languages.javascript.tidy.fix_tests`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from codeproof.languages.javascript.requires import (
    local_requires,
    require_lines,
    unbound_identifiers,
)
from codeproof.languages.reading import Declared, sole_owner
from codeproof.languages.syntax import parse


def fit_tests(
    source: str, declared: Sequence[Declared], elsewhere: Collection[str] = frozenset()
) -> str:
    """``source`` requiring the declared names it uses unbound (see the module doc).
    ``elsewhere`` (names only modules built apart from this one declare) changes
    nothing: a destructured ``require`` of a name a module lacks binds ``undefined``,
    which fails the tests using it alone, not the file."""
    tree = parse("javascript", source)
    required = {stem for _, stem in local_requires(tree)}
    wanted: dict[str, list[str]] = {}
    for name in sorted(unbound_identifiers(tree)):
        owner = sole_owner(name, declared)
        if owner is not None and owner not in required:
            wanted.setdefault(owner, []).append(name)
    return require_lines(wanted) + source if wanted else source
