"""The examples of a spec and of each module: the user's (ground truth) apart from the
analyst's own, each example once whatever its quotes."""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from codeproof.contract.examples import (
    NOT_FUNCTIONS,
    parameters,
    stated_assertions,
    stated_examples,
)
from codeproof.contract.said import stated_in
from codeproof.core.signatures import declaring_part
from codeproof.languages.values import first_call, split_example

_NAMES = re.compile(r"([A-Za-z_$][\w$]*)\s*\(")


def module_examples(words: str, spec_examples: Sequence[str], interface: str) -> list[str]:
    """The examples the user stated for a module (ground truth): the spec's examples of
    the module's interface functions that the user's words state, then every example
    the words state for those functions, each once. Another module's examples are not
    this one's (js-calculator: `evaluate(..)` examples in the tokenizer's tests)."""
    declared = _NAMES.findall(declaring_part(interface))  # overloads name a function twice
    names = list(dict.fromkeys(n for n in declared if n not in NOT_FUNCTIONS))
    params = {name: _parameters_of(interface, name) for name in names}
    read = [
        *(e for e in stated_in(spec_examples, words) if not names or _function_of(e) in names),
        *stated_examples(words, names, params),
        *stated_assertions(words, names),
    ]
    unique: dict[str, str] = {}
    for example in read:
        unique.setdefault(same_example(example), example)
    return list(unique.values())


def _parameters_of(interface: str, name: str) -> list[str]:
    """The parameters of ``name`` in an interface of one or more lines; of overloads
    (``slugify(title, maxLength)``, ``slugify(title)``), the longest list."""
    lines = [
        ln for ln in interface.splitlines() if re.search(rf"(?<![\w$]){re.escape(name)}\s*\(", ln)
    ]
    return max((parameters(ln[ln.find(name) :]) for ln in lines), key=len, default=[])


INVENTED_KEPT = 3
"""How many examples the analyst adds to the user's that the spec keeps: the analyst is
asked for three; a small model's runaway list (js-slugify: 24 examples, 22 of them its
own, 19 breaking the request's length rule) would hand one misreading to every test."""


def fewer_invented(
    spec_examples: Sequence[str], words: str, interfaces: Sequence[str]
) -> list[str]:
    """``spec_examples`` with every one the user stated (:func:`module_examples`) and the
    first :data:`INVENTED_KEPT` of the others, in their order; one of the others that
    gives a call the user stated another result is dropped (the user's result decides)."""
    stated = module_examples(words, spec_examples, "\n".join(interfaces))
    said = {same_example(e) for e in stated}
    calls = {_call_of(e) for e in stated} - {None}
    kept, invented = [], 0
    for example in spec_examples:
        key = same_example(example)
        if key not in said:
            invented += 1
            if invented > INVENTED_KEPT or _call_of(example) in calls:
                continue
        kept.append(example)
    return kept


def _function_of(example: str) -> str | None:
    """The function an example calls (``f`` of ``new Solution().f(1) -> 2``)."""
    parts = split_example(example)
    found = first_call(parts[0]) if parts else None
    return found[0].rsplit(".", 1)[-1] if found else None


def _call_of(example: str) -> str | None:
    """The call of an example as a parsed expression (quotes and spacing aside)."""
    parts = split_example(example)
    try:
        return ast.dump(ast.parse(parts[0], mode="eval")) if parts else None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def same_example(example: str) -> str:
    """What two statements of one example share: the call and the result as parsed
    expressions where they parse (``f('a') -> 'b'`` and ``f("a") -> "b"``, the
    analyst's and the user's quotes, are one example: py-roman's example tests held each
    of its four examples twice), otherwise the text with its spacing normalized."""
    parts = split_example(example)
    if parts is not None:
        try:
            call, expected = (ast.parse(part, mode="eval") for part in parts)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            pass
        else:
            return f"{ast.dump(call)} -> {ast.dump(expected)}"
    return " ".join(example.split())
