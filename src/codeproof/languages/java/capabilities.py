"""What the capability scan reports in Java: network clients and file deletion."""

from __future__ import annotations

from codeproof.languages.capabilities import DELETE, NETWORK, CapabilityRules
from codeproof.languages.syntax import Node


def _imported(node: Node) -> list[str]:
    """``import java.net.URL;`` -> ``java.net.URL``."""
    scoped = [c for c in node.named_children if c.kind in ("scoped_identifier", "identifier")]
    return [scoped[0].text] if scoped else []


def _receiver(call: Node) -> str:
    """``Files.`` of ``Files.delete(p)``; ``.`` when the receiver is an expression."""
    obj = call.field("object") if call.kind == "method_invocation" else None
    if obj is None:
        return ""
    simple = obj.kind in ("identifier", "field_access", "scoped_identifier")
    return f"{obj.text}." if simple else "."


RULES = CapabilityRules(
    calls={"method_invocation": "name", "object_creation_expression": "type"},
    imports=frozenset({"import_declaration"}),
    imported=_imported,
    receiver=_receiver,
    names={
        "URL": NETWORK,
        "Socket": NETWORK,
        "HttpClient": NETWORK,
        ".openConnection": NETWORK,
        ".newHttpClient": NETWORK,
        "Files.delete": DELETE,
        ".deleteIfExists": DELETE,
        ".delete": DELETE,
        ".deleteOnExit": DELETE,
    },
    modules={"java.net": NETWORK, "javax.net": NETWORK},
)
