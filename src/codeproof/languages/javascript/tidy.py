"""Clean-up of model-written JavaScript: drop demo calls, add the export, fix test requires,
declare re-assigned ``const`` bindings ``let``.

Read with the syntax facade (:mod:`codeproof.languages.syntax`): a comment, string,
template literal or regular expression is never mistaken for code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import PurePosixPath

from codeproof.languages.javascript.accessors import own_fields
from codeproof.languages.javascript.exports import both_shapes
from codeproof.languages.javascript.rebound import let_rebound
from codeproof.languages.syntax import Call, Node, Tree, parse
from codeproof.languages.syntax.edit import remove, replace

_JS_TEST_NAMES = frozenset({"test", "it", "describe"})
_JS_USAGE_OWNERS = frozenset({"console", "assert", *_JS_TEST_NAMES})


def _is_usage_js(call: Call) -> bool:
    """A top-level ``test(...)``/``describe(...)``, ``console.log(...)``, ``assert(...)``,
    ``assert.equal(...)`` or ``test.run()`` statement."""
    receiver = call.receiver
    if receiver is None:
        return call.name in {*_JS_TEST_NAMES, "assert"}
    return receiver.kind == "identifier" and receiver.text in _JS_USAGE_OWNERS


def _test_calls_js(tree: Tree, names: frozenset[str] = _JS_TEST_NAMES) -> list[Call]:
    """Calls of ``names`` (``test``, ``it``, ``describe``) and of their ``.only``,
    ``.skip``... variants."""
    return [
        c
        for c in tree.calls()
        if (c.receiver is None and c.name in names)
        or (c.receiver is not None and c.receiver.kind == "identifier" and c.receiver.text in names)
    ]


def _requires_js(tree: Tree, module: Callable[[str], bool]) -> list[Call]:
    """The ``require('...')`` calls of a module for which ``module(path)`` holds."""
    found = []
    for call in tree.calls({"require"}):
        args = call.args
        ok, path = args[0].value() if len(args) == 1 and call.receiver is None else (False, "")
        if ok and isinstance(path, str) and module(path):
            found.append(call)
    return found


def _declaring(calls: list[Call]) -> list[Node]:
    """The ``const x = require(...)`` statements that declare one of ``calls`` alone."""
    out = []
    for call in calls:
        declarator = call.node.parent
        statement = declarator.parent if declarator is not None else None
        if declarator is None or statement is None or declarator.field("value") != call.node:
            continue
        if statement.named_children == [declarator]:
            out.append(statement)
    return out


def _uses(tree: Tree, name: str, besides: list[Node]) -> bool:
    """Whether ``name`` is read anywhere outside ``besides``."""
    return any(
        token.text == name and token.kind == "identifier"
        for token in tree.tokens()
        if not any(node.contains(token) for node in besides)
    )


def strip_usage_javascript(source: str) -> str:
    """Drop top-level tests and example usage from a generated JavaScript module.

    Top-level ``test(...)``/``describe(...)`` blocks (and the ``node:test`` require; the
    assert require once nothing uses it), and ``console.log(...)``/``assert(...)``/
    ``test.run()`` statements. Code inside functions is never touched. A module that
    exports nothing exports its top-level functions and classes.
    """
    tree = parse("javascript", source)
    top = tree.root.named_children
    usage = [c.node for c in tree.calls() if c.statement in top and _is_usage_js(c)]
    text = remove(source, usage)
    tree = parse("javascript", text)
    if not _test_calls_js(tree):
        text = remove(text, _declaring(_requires_js(tree, lambda p: p == "node:test")))
        tree = parse("javascript", text)
    required = _declaring(_requires_js(tree, _is_assert_module))
    if required and not _uses(tree, "assert", required):
        text = remove(text, required)
    return _export_javascript(text)


def _is_assert_module(path: str) -> bool:
    return path.removeprefix("node:") in ("assert", "assert/strict")


def _export_javascript(source: str) -> str:
    """Export the top-level functions and classes of a module that exports nothing.

    The tests ``require`` the module; without ``module.exports`` they see ``{}``.
    """
    tree = parse("javascript", source)
    if tree.exports():
        return source
    names = [
        d.name
        for d in tree.declarations()
        if d.top_level and not d.owner and d.kind in ("function", "class")
    ]
    if not names:
        return source
    exports = ", ".join(dict.fromkeys(names))
    return source.rstrip() + f"\n\nmodule.exports = {{ {exports} }};\n"


_OPENING = frozenset({"(", "[", "{", "${"})
_CLOSING = frozenset({")", "]", "}"})


def _drop_unfinished_js_tail(source: str) -> str:
    """Cut a reply that stopped mid-test (token limit) after its last complete top-level
    statement: the last ``;`` or ``}`` with every bracket before it closed. Only when the
    code is left unfinished at its end, so a well-formed file (or one with an error
    elsewhere) is never touched; and only when what is kept parses. (One JavaScript
    syntax error stops the whole file from loading, so every test in it would be lost.)
    Read from the tokens: the parser's recovery may wrap a long unfinished file in one
    error node, with no top-level statement to cut after."""
    tree = parse("javascript", source)
    errors = tree.errors()
    if not errors or errors[-1].end < len(source.rstrip()):
        return source
    depth, cut = 0, None
    for token in tree.tokens():
        if token.missing:
            continue
        depth += (token.kind in _OPENING) - (token.kind in _CLOSING)
        if depth == 0 and token.kind in (";", "}"):
            cut = token.end
    if cut is None:
        return source
    kept = source[:cut] + "\n"
    return source if parse("javascript", kept).has_error else kept


_MESSAGE_ASSERTIONS = frozenset({"throws", "rejects"})


def _expected_messages(source: str) -> str:
    """``assert.throws(fn, 'the message')`` written ``assert.throws(fn, { message: 'the
    message' })``, as the writer meant it.

    Node reads a string second argument as the text to print when nothing is thrown, not
    as the error expected: the check passes whatever ``fn`` throws, and an error whose
    message *is* that string fails it with ``ERR_AMBIGUOUS_ARGUMENT`` ("The error message
    ... is identical to the message"): the right code fails, any wrong error passes. A
    1.5B test design of js-order-flow wrote 24 such checks (of 30 tests) of the stated
    messages. Only two-argument calls on an ``assert`` object: with a third argument the
    string may be meant as Node reads it."""
    tree = parse("javascript", source)
    edits: list[tuple[int, int, str]] = []
    for call in tree.calls(_MESSAGE_ASSERTIONS):
        receiver, args = call.receiver, call.args
        if receiver is None or receiver.text != "assert" or len(args) != 2:
            continue
        if args[1].kind in ("string", "template_string"):
            edits.append((args[1].start, args[1].end, f"{{ message: {args[1].text} }}"))
    return replace(source, edits)


def _local_require(ours: set[str], module: str) -> Callable[[Call], str]:
    def rewrite(call: Call) -> str:
        path = call.args[0].value()[1]
        stem = PurePosixPath(str(path)).name.removesuffix(".js")
        return f"require('./{stem if stem in ours else module}')"

    return rewrite


def fix_javascript_tests(source: str, module: str, dependencies: Sequence[str]) -> str:
    """Require the module by its real path; add missing ``node:test``/assert requires."""
    relative = _requires_js(parse("javascript", source), lambda p: p.startswith(("./", "../")))
    rewrite = _local_require({module, *dependencies}, module)
    text = replace(source, [(c.node.start, c.node.end, rewrite(c)) for c in relative])
    text = _expected_messages(_drop_unfinished_js_tail(text))
    tree = parse("javascript", text)
    declared = {d.name for d in tree.declarations()}
    tests = _test_calls_js(tree)
    head = []
    own = {f"./{module}", f"./{module}.js"}
    if _test_calls_js(tree, frozenset({"test", "it"})) and not _requires_js(tree, own.__contains__):
        # Tests that call the module's functions without requiring it: make its exports
        # visible (the JavaScript counterpart of Python's ``from module import *``).
        head.append(f"Object.assign(globalThis, require('./{module}'));")
    unbound = not declared & _JS_TEST_NAMES
    if tests and unbound and not _requires_js(tree, lambda p: p == "node:test"):
        head.append("const { test, describe, it } = require('node:test');")
    if "assert" not in declared and _uses(tree, "assert", []):
        head.append("const assert = require('node:assert/strict');")
    return let_rebound("\n".join([*head, text]) if head else text)


def fix_source(source: str, path: str) -> str:
    """A generated module without its example usage (see :func:`strip_usage_javascript`),
    its re-assigned ``const`` bindings declared ``let`` (:mod:`.rebound`), the fields its
    classes' accessors hide renamed ``_name`` (:mod:`.accessors`), and its one exported
    class or function required either way (:mod:`.exports`)."""
    return both_shapes(own_fields(let_rebound(strip_usage_javascript(source))))


def fix_tests(source: str, path: str, module: str, dependencies: Sequence[str]) -> str:
    """A generated ``node:test`` file that requires ``module`` as the toolchain runs it."""
    return fix_javascript_tests(source, module, dependencies)
