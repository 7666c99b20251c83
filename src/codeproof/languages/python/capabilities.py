"""What the capability scan reports in Python: network clients and file deletion."""

from __future__ import annotations

from codeproof.languages.capabilities import DELETE, DELETE_TREE, NETWORK, CapabilityRules
from codeproof.languages.syntax import Node

_NET_MODULES = (
    "socket", "urllib.request", "http.client", "requests", "httpx", "aiohttp", "ftplib",
    "smtplib", "telnetlib", "paramiko", "websocket", "websockets",
)  # fmt: skip
_HTTP = (
    "get", "post", "put", "patch", "delete", "head", "request", "Session", "Client",
    "AsyncClient", "stream",
)  # fmt: skip


def _imported(node: Node) -> list[str]:
    """``from m import x`` -> ``m``; ``import a.b, c as d`` -> ``a.b``, ``c``."""
    module = node.field("module_name")
    if module is not None:
        return [module.text]
    names = [c for c in node.named_children if c.kind in ("dotted_name", "aliased_import")]
    return [(n.field("name") or n).text for n in names]


RULES = CapabilityRules(
    calls={"call": "function"},
    imports=frozenset({"import_statement", "import_from_statement"}),
    imported=_imported,
    names={
        ".urlopen": NETWORK,
        ".create_connection": NETWORK,
        "socket.socket": NETWORK,
        "http.client.HTTPConnection": NETWORK,
        "http.client.HTTPSConnection": NETWORK,
        "ftplib.FTP": NETWORK,
        "smtplib.SMTP": NETWORK,
        **{f"requests.{n}": NETWORK for n in _HTTP},
        **{f"httpx.{n}": NETWORK for n in _HTTP},
        "os.remove": DELETE,
        "os.unlink": DELETE,
        "os.rmdir": DELETE,
        ".unlink": DELETE,
        ".rmdir": DELETE,
        ".rmtree": DELETE_TREE,
        ".removedirs": DELETE_TREE,
    },
    modules={m: NETWORK for m in _NET_MODULES},
)
