"""How retrieval chunks Java: methods, constructors, types and their fields, Javadoc."""

from __future__ import annotations

from codeproof.languages.chunking import Chunking

CHUNKING = Chunking(
    functions=frozenset({"method_declaration", "constructor_declaration"}),
    classes=frozenset(
        {
            "class_declaration",
            "interface_declaration",
            "enum_declaration",
            "record_declaration",
            "annotation_type_declaration",
        }
    ),
    comments=frozenset({"block_comment", "line_comment"}),
    fields=frozenset({"field_declaration", "enum_constant", "constant_declaration"}),
)
