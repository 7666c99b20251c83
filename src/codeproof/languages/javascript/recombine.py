"""One function of a JavaScript draft put in another (:mod:`codeproof.choosing.recombining`).

The Python counterpart is :mod:`codeproof.languages.python.recombine`; here the drafts are
read with the syntax facade (tree-sitter). A top-level ``function f``, ``const f = ...``
or ``class F`` of the donor replaces the base's, with the donor's top-level declarations
it uses (helpers, constants, ``require`` bindings) that the base lacks, put before it.
"""

from __future__ import annotations

from collections.abc import Collection

from codeproof.languages.syntax import Node, parse
from codeproof.languages.values import needed

_TOP_KINDS = frozenset({"function", "variable", "class", "import"})


def splice(base: dict[str, str], donor: dict[str, str], name: str) -> dict[str, str] | None:
    """``base`` (source files, no tests) with its top-level declaration ``name`` replaced by
    ``donor``'s and the donor's top-level declarations it uses that ``base`` lacks; None
    where either lacks it in one file, a helper it uses is declared otherwise in
    ``base``, one exports it and the other does not, or nothing changes."""
    path, source = _declaring(base, name), _declaring(donor, name)
    if path is None or source is None:
        return None
    code, other = base[path], donor[source]
    ours, theirs = _top(code), _top(other)
    mine, given = ours[name], theirs[name]
    if (mine.kind == "export_statement") != (given.kind == "export_statement"):
        return None
    taken = needed(name, lambda n: (u for u in _used(theirs[n]) if u in theirs))
    for used in taken[1:]:
        clash = used in ours and ours[used].text != theirs[used].text
        if clash and ours[used].kind != "import_statement":  # an import: the same module
            return None
    # dependencies first: a constant another helper reads as the module loads
    added = list(dict.fromkeys(theirs[n].text for n in reversed(taken[1:]) if n not in ours))
    if given.text == mine.text and not added:
        return None
    before = "".join(f"{text}\n\n" for text in added)
    new = code[: mine.start] + before + given.text + code[mine.end :]
    if parse("javascript", new).has_error:
        return None
    return {**base, path: new}


def calls_by_test(tests: dict[str, str], names: Collection[str]) -> dict[str, frozenset[str]]:
    """Test name (``suite > title``, as reports name it) -> which of ``names`` (the
    module's functions) the test calls."""
    wanted = set(names)
    found: dict[str, frozenset[str]] = {}
    for path, text in tests.items():
        if not path.endswith((".js", ".mjs", ".cjs")):
            continue
        tree = parse("javascript", text)
        for case in tree.tests():
            called = {call.name for call in tree.calls(wanted, case.node)}
            found[" > ".join([*case.suite, case.name])] = frozenset(called)
    return found


def _declaring(files: dict[str, str], name: str) -> str | None:
    """The one JavaScript file declaring ``name`` at the top level."""
    found = [
        path
        for path, text in files.items()
        if path.endswith((".js", ".mjs", ".cjs")) and name in _top(text)
    ]
    return found[0] if len(found) == 1 else None


def _top(code: str) -> dict[str, Node]:
    """Top-level name -> the statement declaring it (its ``export`` statement, if any)."""
    tree = parse("javascript", code)
    top: dict[str, Node] = {}
    for declared in tree.declarations():
        if declared.top_level and declared.kind in _TOP_KINDS:
            top.setdefault(declared.name, _statement(declared.node))
    return top


def _statement(node: Node) -> Node:
    """The top-level statement around a declaration (``const`` around a declarator, the
    ``export`` around that)."""
    while node.parent is not None and node.parent.kind != "program":
        node = node.parent
    return node


def _used(node: Node) -> list[str]:
    """The identifiers ``node`` reads, each once, in source order."""
    return list(dict.fromkeys(n.text for n in node.walk() if n.kind == "identifier"))
