"""What the retrieval chunker needs to know of a language's syntax tree.

The chunker (:mod:`codeproof.retrieval.chunking.code`) cuts a source file into one chunk
per function, method and class. It parses with the language's syntax-facade grammar
(``languages/<name>/syntax.py``) and reads the tree through a :class:`Chunking`: which
node kinds define functions and classes, which wrap them, where docstrings are. Each
language package declares its own (``languages/<name>/chunking.py``, the
``Language.chunking`` field); a language without one is cut into windows of lines.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Chunking:
    """Node kinds of one language's tree that make its chunks.

    Attributes:
        functions: Kinds of function and method definitions.
        classes: Kinds of class-like definitions (their bodies hold members).
        wrappers: Kinds wrapping a definition (decorators, ``export``).
        variables: Declaration kinds whose declarators may bind a function.
        function_values: Value kinds that make such a declarator a function.
        comments: Kinds of comments (a comment right above a definition documents it).
        docstring_first: The docstring is the body's first string (Python).
        strip_colon: A signature ends with a ``:`` that is not part of it (Python).
        signature_from_wrapper: The signature starts at the wrapper (``export function
            f``), not inside it.
        fields: Kinds of a class body's fields (shown in the class chunk, first line).
    """

    functions: frozenset[str]
    classes: frozenset[str]
    wrappers: frozenset[str] = frozenset()
    variables: frozenset[str] = frozenset()
    function_values: frozenset[str] = frozenset()
    comments: frozenset[str] = frozenset({"comment"})
    docstring_first: bool = False
    strip_colon: bool = False
    signature_from_wrapper: bool = False
    fields: frozenset[str] = frozenset()
