"""How retrieval chunks Python: functions, classes, decorated definitions, docstrings."""

from __future__ import annotations

from codeproof.languages.chunking import Chunking

CHUNKING = Chunking(
    functions=frozenset({"function_definition"}),
    classes=frozenset({"class_definition"}),
    wrappers=frozenset({"decorated_definition"}),
    docstring_first=True,
    strip_colon=True,
    fields=frozenset({"expression_statement"}),
)
