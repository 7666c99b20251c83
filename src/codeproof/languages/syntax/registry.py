"""Grammars by language name.

A language provides its grammar as ``GRAMMAR`` in ``codeproof.languages.<name>.syntax``;
it is registered the first time it is asked for. :func:`register` adds (or replaces) one
from anywhere else, e.g. a plugin or a test.
"""

from __future__ import annotations

import importlib

from codeproof.core.errors import NoGrammarError
from codeproof.languages.syntax.grammar import Grammar

_GRAMMARS: dict[str, Grammar] = {}


def register(grammar: Grammar) -> None:
    """Make ``grammar`` the one of its language."""
    _GRAMMARS[grammar.name] = grammar


def find_grammar(language: str) -> Grammar | None:
    """The grammar of ``language`` (a canonical name such as ``javascript``), if any."""
    if language not in _GRAMMARS and language.isidentifier():
        path = f"codeproof.languages.{language}.syntax"
        try:
            module = importlib.import_module(path)
        except ModuleNotFoundError as exc:
            if exc.name is None or not path.startswith(exc.name):
                raise  # the language's module is there and fails: say so
            return None
        provided = getattr(module, "GRAMMAR", None)
        if isinstance(provided, Grammar):
            register(provided)
    return _GRAMMARS.get(language)


def grammar_for(language: str) -> Grammar:
    """The grammar of ``language``.

    Raises:
        NoGrammarError: no grammar is registered or provided for it.
    """
    found = find_grammar(language)
    if found is None:
        raise NoGrammarError(language, list(_GRAMMARS))
    return found
