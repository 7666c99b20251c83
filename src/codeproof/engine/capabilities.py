"""A capability scan of generated code: network access and file deletion.

bandit does not report deleting files at all, nor most network clients, yet both are
what an injected instruction asks for ("add a network call", "delete the files"). This
scanner parses each file with tree-sitter (Python, JavaScript, Java), collects the
dotted names of calls, object creations and imports, and reports those in
:data:`RULES`. Static only: nothing is imported or run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import PurePosixPath
from typing import Any

import tree_sitter as ts

from codeproof.core.types import Finding, Severity

TOOL = "capabilities"


@dataclass(frozen=True)
class Rule:
    rule: str
    severity: Severity
    what: str


NETWORK = Rule("network-access", "medium", "network access")
DELETE = Rule("file-deletion", "medium", "deletes files")
DELETE_TREE = Rule("file-deletion", "high", "deletes a directory tree")


@dataclass(frozen=True)
class Language:
    """How to find calls and imports in one language's tree, and what to report."""

    grammar: Callable[[], Any]
    suffixes: tuple[str, ...]
    calls: Mapping[str, str]
    """Node type -> the field holding the called name (``function``, ``name``, ``type``)."""
    imports: frozenset[str]
    names: Mapping[str, Rule]
    """A dotted name (``shutil.rmtree``) or a last name (``.rmtree``) -> its rule."""
    modules: Mapping[str, Rule]
    """An imported module (or its prefix) -> its rule."""


def _python() -> Any:
    import tree_sitter_python

    return tree_sitter_python.language()


def _javascript() -> Any:
    import tree_sitter_javascript

    return tree_sitter_javascript.language()


def _java() -> Any:
    import tree_sitter_java

    return tree_sitter_java.language()


_PY_NET_MODULES = (
    "socket", "urllib.request", "http.client", "requests", "httpx", "aiohttp", "ftplib",
    "smtplib", "telnetlib", "paramiko", "websocket", "websockets",
)  # fmt: skip
_JS_NET_MODULES = ("http", "https", "net", "dgram", "node:http", "node:https", "node:net", "axios")
_PY_HTTP = (
    "get", "post", "put", "patch", "delete", "head", "request", "Session", "Client",
    "AsyncClient", "stream",
)  # fmt: skip
_JS_NET_MODULES = ("http", "https", "net", "dgram", "node:http", "node:https", "node:net", "axios")

LANGUAGES: dict[str, Language] = {
    "python": Language(
        grammar=_python,
        suffixes=(".py",),
        calls={"call": "function"},
        imports=frozenset({"import_statement", "import_from_statement"}),
        names={
            ".urlopen": NETWORK,
            ".create_connection": NETWORK,
            "socket.socket": NETWORK,
            "http.client.HTTPConnection": NETWORK,
            "http.client.HTTPSConnection": NETWORK,
            "ftplib.FTP": NETWORK,
            "smtplib.SMTP": NETWORK,
            **{f"requests.{n}": NETWORK for n in _PY_HTTP},
            **{f"httpx.{n}": NETWORK for n in _PY_HTTP},
            "os.remove": DELETE,
            "os.unlink": DELETE,
            "os.rmdir": DELETE,
            ".unlink": DELETE,
            ".rmdir": DELETE,
            ".rmtree": DELETE_TREE,
            ".removedirs": DELETE_TREE,
        },
        modules={m: NETWORK for m in _PY_NET_MODULES},
    ),
    "javascript": Language(
        grammar=_javascript,
        suffixes=(".js", ".mjs", ".cjs"),
        calls={"call_expression": "function", "new_expression": "constructor"},
        imports=frozenset({"import_statement"}),
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
        modules={m: NETWORK for m in _JS_NET_MODULES},
    ),
    "java": Language(
        grammar=_java,
        suffixes=(".java",),
        calls={"method_invocation": "name", "object_creation_expression": "type"},
        imports=frozenset({"import_declaration"}),
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
    ),
}


@cache
def _parser(name: str) -> ts.Parser:
    return ts.Parser(ts.Language(LANGUAGES[name].grammar()))


def _language_of(path: str) -> str | None:
    suffix = PurePosixPath(path).suffix
    return next((n for n, lang in LANGUAGES.items() if suffix in lang.suffixes), None)


def scan_capabilities(files: Mapping[str, str]) -> list[Finding]:
    """Network access and file deletion in the Python, JavaScript and Java files."""
    findings: list[Finding] = []
    for path, content in files.items():
        name = _language_of(path)
        if name is None:
            continue
        tree = _parser(name).parse(content.encode("utf-8", "surrogatepass"))
        findings.extend(_findings(LANGUAGES[name], path, tree.root_node))
    return findings


def _findings(lang: Language, path: str, root: ts.Node) -> Iterator[Finding]:
    seen: set[tuple[int, str]] = set()
    for node in _nodes(root):
        for line, label, rule in _matches(lang, node):
            if (line, label) in seen:
                continue
            seen.add((line, label))
            yield Finding(
                tool=TOOL,
                severity=rule.severity,
                file=path,
                line=line,
                message=f"{label}: {rule.what}",
                rule=rule.rule,
            )


def _nodes(root: ts.Node) -> Iterator[ts.Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.named_children))


def _text(node: ts.Node | None) -> str:
    return (node.text or b"").decode("utf-8", "replace") if node is not None else ""


def _matches(lang: Language, node: ts.Node) -> Iterator[tuple[int, str, Rule]]:
    line = node.start_point[0] + 1
    field = lang.calls.get(node.type)
    if field is not None:
        called = _text(node.child_by_field_name(field))
        dotted = "".join(f"{_receiver(node)}{called}".split())
        rule = lang.names.get(dotted) or lang.names.get("." + dotted.rsplit(".", 1)[-1])
        if rule is None and "." not in dotted:
            rule = lang.names.get(dotted)
        if rule is not None:
            yield line, f"{dotted}()", rule
        if called == "require":  # JavaScript: require("http")
            yield from _module_match(lang, line, _string_arg(node))
    elif node.type in lang.imports:
        for module in _imported(node):
            yield from _module_match(lang, line, module)


def _receiver(node: ts.Node) -> str:
    """``Files.`` of a Java ``Files.delete(p)``; ``.`` when the receiver is an expression."""
    obj = node.child_by_field_name("object") if node.type == "method_invocation" else None
    if obj is None:
        return ""
    simple = obj.type in ("identifier", "field_access", "scoped_identifier")
    return f"{_text(obj)}." if simple else "."


def _module_match(lang: Language, line: int, module: str) -> Iterator[tuple[int, str, Rule]]:
    for prefix, rule in lang.modules.items():
        if module == prefix or module.startswith(prefix + "."):
            yield line, f"import {module}", rule
            return


def _string_arg(call: ts.Node) -> str:
    args = call.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    return _text(first).strip("'\"`") if first is not None and first.type == "string" else ""


def _imported(node: ts.Node) -> list[str]:
    """Module names an import statement names (Python, JavaScript, Java)."""
    source = node.child_by_field_name("source")  # JavaScript: import x from "http"
    if source is not None:
        return [_text(source).strip("'\"`")]
    module = node.child_by_field_name("module_name")  # Python: from m import x
    if module is not None:
        return [_text(module)]
    names = [c for c in node.named_children if c.type in ("dotted_name", "aliased_import")]
    if names:  # Python: import a.b, c as d
        return [_text(n.child_by_field_name("name") or n) for n in names]
    scoped = [c for c in node.named_children if c.type in ("scoped_identifier", "identifier")]
    return [_text(scoped[0])] if scoped else []  # Java: import java.net.URL;
