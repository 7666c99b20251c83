"""What the capability scan reports in JavaScript: network clients and file deletion."""

from __future__ import annotations

from codeproof.languages.capabilities import DELETE, DELETE_TREE, NETWORK, CapabilityRules
from codeproof.languages.syntax import Node

_NET_MODULES = ("http", "https", "net", "dgram", "node:http", "node:https", "node:net", "axios")


def _imported(node: Node) -> list[str]:
    """``import x from "http"`` -> ``http``."""
    source = node.field("source")
    return [source.text.strip("'\"`")] if source is not None else []


RULES = CapabilityRules(
    calls={"call_expression": "function", "new_expression": "constructor"},
    imports=frozenset({"import_statement"}),
    imported=_imported,
    loaders=frozenset({"require"}),
    names={
        "fetch": NETWORK,
        "XMLHttpRequest": NETWORK,
        "WebSocket": NETWORK,
        "http.request": NETWORK,
        "https.request": NETWORK,
        "http.get": NETWORK,
        "https.get": NETWORK,
        "net.connect": NETWORK,
        "net.createConnection": NETWORK,
        ".unlink": DELETE,
        ".unlinkSync": DELETE,
        ".rmdir": DELETE,
        ".rmdirSync": DELETE,
        ".rm": DELETE_TREE,
        ".rmSync": DELETE_TREE,
    },
    modules={m: NETWORK for m in _NET_MODULES},
)
