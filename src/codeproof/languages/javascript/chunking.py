"""How retrieval chunks JavaScript: functions, arrow functions bound to names, classes,
methods, ``export`` wrappers, JSDoc comments."""

from __future__ import annotations

from codeproof.languages.chunking import Chunking

CHUNKING = Chunking(
    functions=frozenset(
        {"function_declaration", "generator_function_declaration", "method_definition"}
    ),
    classes=frozenset({"class_declaration"}),
    wrappers=frozenset({"export_statement"}),
    signature_from_wrapper=True,
    variables=frozenset({"lexical_declaration", "variable_declaration"}),
    function_values=frozenset({"arrow_function", "function_expression", "function"}),
    fields=frozenset({"field_definition"}),
)
