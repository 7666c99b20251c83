"""Whether a candidate defines the names its module's interface declares at the top level.

py-inventory-report at ``e33c326``: the interface of ``report`` is ``report.to_csv(inventory)``;
three of five drafts rewrote ``Inventory`` with a ``to_csv`` *method* and no function
``to_csv``. The designed tests of ``to_csv`` failed on every one of them, the three agreed,
and their agreement set aside the tests of the very function the user asked for: the
project shipped without ``to_csv``, meeting 0 of 14 acceptance checks where drafts defining
it met 4. A candidate missing a declared top-level name is no evidence against the tests
of that name.

A name counts as declared at the top level when the interface writes it qualified by the
module's own name (``report.to_csv(``), as ``class Name``, or bare (``to_csv(``) where the
interface declares no class (a bare name beside a class may be one of its methods); it is
only *required* when some candidate does define it at the top level (what the language's
signature reader lists without an owner), so a language or a reading where such names are
methods (a Java class's, a JavaScript class's) requires nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeproof.core.signatures import declaring_part
from codeproof.core.types import Module
from codeproof.languages import registry
from codeproof.languages.reading import Declared

_DECLARED = re.compile(
    r"(?:\bclass\s+([A-Za-z_$][\w$]*))|(?<![\w$])((?:[A-Za-z_$][\w$]*\.)?[A-Za-z_$][\w$]*)\s*\("
)
"""``class Name`` or a call-like ``[owner.]name(`` in the interface text."""


def declared_top_level(module: Module) -> list[str]:
    """The names the interface declares at the top level, in order, each once."""
    matches = list(_DECLARED.finditer(declaring_part(module.public_interface)))
    classes = any(match.group(1) for match in matches)
    names: dict[str, None] = {}
    for match in matches:
        if match.group(1):
            names.setdefault(match.group(1))
            continue
        owner, _, name = match.group(2).rpartition(".")
        if owner == module.name or (owner == "" and not classes):
            names.setdefault(name)
    return [n for n in names if n not in _NOT_NAMES]


_NOT_NAMES = frozenset({"if", "for", "while", "return", "new", "function", "def", "class"})


def declared(module: Module) -> Declared:
    """What ``module``'s interface text declares: ``class Name``, ``Name.method(``
    (a method of that class, whether or not a ``class`` line names it),
    ``module.function(``, and a bare ``name(``: a function where the interface declares
    no class, else loose (a function or a method)."""
    matches = list(_DECLARED.finditer(declaring_part(module.public_interface)))
    classes: dict[str, set[str]] = {m.group(1): set() for m in matches if m.group(1)}
    functions: set[str] = set()
    bare: set[str] = set()
    for match in matches:
        if match.group(1):
            continue
        owner, _, name = match.group(2).rpartition(".")
        if name in _NOT_NAMES or owner in _NOT_NAMES:
            continue
        if owner == module.name:
            functions.add(name)
        elif owner:
            classes.setdefault(owner, set()).add(name)
        else:
            bare.add(name)
    if classes:
        loose, functions = bare - functions - classes.keys(), functions
    else:
        loose, functions = set(), functions | bare
    return Declared(
        module.name,
        frozenset(functions),
        {name: frozenset(methods) for name, methods in classes.items()},
        frozenset(loose),
    )


def names_of(found: Declared) -> set[str]:
    """Every name ``found`` declares: functions, classes, their methods, loose names."""
    methods = {m for names in found.classes.values() for m in names}
    return {*found.functions, *found.classes, *methods, *found.loose}


def top_level_names(files: dict[str, str], language: str) -> set[str]:
    """The public names ``files`` define at the top level (not methods), by the language's
    signature reader; test files are left out."""
    found = registry.find(language)
    if found is None:
        return set()
    layout = found.layout
    names: set[str] = set()
    for path, content in files.items():
        if layout.owns(path) and not layout.is_test_path(path):
            names |= {s.name for s in found.editing.signatures(content, path) if "." not in s.name}
    return names


def missing_names(module: Module, candidates: Sequence[dict[str, str]]) -> list[list[str]]:
    """Per candidate: the declared top-level names it lacks that another candidate defines
    at the top level (empty lists when nothing is required)."""
    declared = declared_top_level(module)
    defined = [top_level_names(files, module.language) for files in candidates]
    required = [n for n in declared if any(n in names for names in defined)]
    return [[n for n in required if n not in names] for names in defined]


def undefined_names(module: Module, files: dict[str, str]) -> list[str]:
    """The top-level names ``module``'s interface declares that ``files`` does not
    define, by the language's signature reader (none when it reads no name at all: a
    file it cannot read is no evidence of a missing one)."""
    defined = top_level_names(files, module.language)
    if not defined:
        return []
    return [n for n in declared_top_level(module) if n not in defined]
