"""The Python prober: the calls of the tests that take literal arguments, and the script
that runs them on a draft in the sandbox and prints each output."""

from __future__ import annotations

import ast
from collections.abc import Collection, Mapping

from codeproof.languages.base import MAX_PROBES

SCRIPT = """\
import contextlib, io, json, signal, sys
sys.path.insert(0, ".")
CALLS = {calls}
def _canon(v):
    if isinstance(v, float):
        return float(f"{{v:.9g}}")
    if isinstance(v, (list, tuple)):
        return type(v)(_canon(x) for x in v)
    if isinstance(v, dict):
        return {{_canon(k): _canon(x) for k, x in v.items()}}
    return v
def _alarm(*_):
    raise TimeoutError
signal.signal(signal.SIGALRM, _alarm)
try:
    with contextlib.redirect_stdout(io.StringIO()):
        import {module} as _m
    ns = dict(vars(_m))
except BaseException as e:
    ns = None
    err = "!import " + type(e).__name__
for call in CALLS:
    if ns is None:
        out = err
    else:
        signal.alarm({limit_s})
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                out = repr(_canon(eval(call, dict(ns))))
        except BaseException as e:
            out = "!" + type(e).__name__
        finally:
            signal.alarm(0)
    sys.__stdout__.write({mark!r} + json.dumps(out[:400]) + "\\n")
"""

BROKEN = frozenset(
    {
        "NameError",
        "UnboundLocalError",
        "ImportError",
        "ModuleNotFoundError",
        "SyntaxError",
        "IndentationError",
        "TabError",
    }
)
"""Errors of code that is broken whatever the input (py-word-freq: four drafts whose
``top_word`` read a variable of another function agreed on ``!NameError`` and outvoted
the one draft whose ``top_word`` worked)."""


def _literal(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def python_calls(tests: Mapping[str, str], names: Collection[str]) -> list[str]:
    """Calls of ``names`` with literal arguments found in Python test sources."""
    found: list[str] = []
    for source in tests.values():
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name):
                name = func.id
            elif isinstance(func, ast.Attribute):
                name = func.attr
            else:
                continue
            if name not in names or any(k.arg is None for k in node.keywords):
                continue
            if all(_literal(a) for a in [*node.args, *(k.value for k in node.keywords)]):
                call = ast.Call(func=ast.Name(id=name), args=node.args, keywords=node.keywords)
                found.append(ast.unparse(call))
    return list(dict.fromkeys(found))[:MAX_PROBES]
