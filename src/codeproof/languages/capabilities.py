"""A capability scan of generated code: network access and file deletion.

bandit does not report deleting files at all, nor most network clients, yet both are
what an injected instruction asks for ("add a network call", "delete the files"). A
language's :class:`CapabilityRules` (``languages/<name>/capabilities.py``) say which
calls, object creations and imports do either; a :class:`CapabilityScanner` parses the
files its language owns with the syntax facade, collects the dotted names of those
calls and the modules imported, and reports the ones the rules name. The scanner is one
of the language's ``scanners``. Static only: nothing is imported or run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from codeproof.core.reports import Finding, Severity
from codeproof.languages import syntax
from codeproof.languages.layout import Layout

TOOL = "capabilities"


@dataclass(frozen=True)
class Rule:
    """What one kind of match is reported as."""

    rule: str
    severity: Severity
    what: str


NETWORK = Rule("network-access", "medium", "network access")
DELETE = Rule("file-deletion", "medium", "deletes files")
DELETE_TREE = Rule("file-deletion", "high", "deletes a directory tree")


_Match = tuple[int, str, Rule]
"""``(line, what was called or imported, its rule)``."""


def _no_receiver(call: syntax.Node) -> str:
    return ""


@dataclass(frozen=True)
class CapabilityRules:
    """How to find calls and imports in one language's tree, and what to report.

    Attributes:
        calls: Node kind of a call or object creation -> the field holding the called
            name (``function``, ``name``, ``type``).
        imports: Node kinds of import statements.
        imported: ``import node -> the module names it imports``.
        names: A dotted name (``shutil.rmtree``) or a last name (``.rmtree``) -> its rule.
        modules: An imported module (or its prefix) -> its rule.
        loaders: Names of calls whose first string argument is a module they load
            (``require("http")``).
        receiver: ``call node -> what the call is made on`` as a prefix of the called
            name (``Files.``, ``.`` for an expression), where the called name's field
            does not include it.
    """

    calls: Mapping[str, str]
    imports: frozenset[str]
    imported: Callable[[syntax.Node], list[str]]
    names: Mapping[str, Rule]
    modules: Mapping[str, Rule]
    loaders: frozenset[str] = frozenset()
    receiver: Callable[[syntax.Node], str] = _no_receiver


@dataclass(frozen=True)
class CapabilityScanner:
    """The capability scan of the files ``layout`` owns (a language's ``Scanner``)."""

    rules: CapabilityRules
    layout: Layout
    """The language's layout: the files it owns, and the name of its grammar."""

    def __call__(self, files: Mapping[str, str]) -> list[Finding]:
        findings: list[Finding] = []
        for path, content in files.items():
            if self.layout.owns(path):
                tree = syntax.parse(self.layout.language, _encodable(content))
                findings.extend(_findings(self.rules, path, tree.root))
        return findings


def scan_capabilities(files: Mapping[str, str]) -> list[Finding]:
    """Network access and file deletion in the files of every known language (each
    language's :class:`CapabilityScanner` on the files it owns)."""
    from codeproof.languages import registry  # the registry imports the languages

    return [
        finding
        for language in registry.languages()
        for scanner in language.scanners
        if isinstance(scanner, CapabilityScanner)
        for finding in scanner(files)
    ]


def _encodable(text: str) -> str:
    """``text`` with lone surrogates (undecodable bytes read leniently) as ``?``."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


def _findings(rules: CapabilityRules, path: str, root: syntax.Node) -> Iterator[Finding]:
    seen: set[tuple[int, str]] = set()
    for node in root.walk():
        if not node.named:
            continue
        for line, label, rule in _matches(rules, node):
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


def _matches(rules: CapabilityRules, node: syntax.Node) -> Iterator[_Match]:
    field = rules.calls.get(node.kind)
    if field is None and node.kind not in rules.imports:
        return
    line = node.span.start_line
    if field is not None:
        called_node = node.field(field)
        called = called_node.text if called_node is not None else ""
        dotted = "".join(f"{rules.receiver(node)}{called}".split())
        rule = rules.names.get(dotted) or rules.names.get("." + dotted.rsplit(".", 1)[-1])
        if rule is not None:
            yield line, f"{dotted}()", rule
        if called in rules.loaders:
            yield from _module_match(rules, line, _string_arg(node))
    elif node.kind in rules.imports:
        for module in rules.imported(node):
            yield from _module_match(rules, line, module)


def _module_match(rules: CapabilityRules, line: int, module: str) -> Iterator[_Match]:
    for prefix, rule in rules.modules.items():
        if module == prefix or module.startswith(prefix + "."):
            yield line, f"import {module}", rule
            return


def _string_arg(call: syntax.Node) -> str:
    args = call.field("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    return first.text.strip("'\"`") if first is not None and first.kind == "string" else ""
