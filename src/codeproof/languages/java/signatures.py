"""TODO-DOC"""

from __future__ import annotations

import re

from codeproof.languages.clike import balanced_end
from codeproof.languages.reading import Example, Signature, dedent, squash

_JAVA_CLASS = re.compile(r"\bpublic\s+(?:final\s+|abstract\s+)*(?:class|interface|record)\s+(\w+)")


_JAVA_METHOD = re.compile(
    r"^[ \t]*public\s+(?P<mods>(?:static\s+|final\s+|synchronized\s+)*)"
    r"(?:<[^>]+>\s+)?(?P<type>[\w.<>\[\], ?]+?)\s+(?P<name>\w+)\s*\((?P<args>[^)]*)\)",
    re.MULTILINE,
)


_JAVA_CTOR = re.compile(r"^[ \t]*public\s+(?P<name>[A-Z]\w*)\s*\((?P<args>[^)]*)\)", re.MULTILINE)


def java_signatures(source: str, path: str) -> list[Signature]:
    """The public class and its public methods and constructors."""
    cls = _JAVA_CLASS.search(source)
    owner = cls.group(1) if cls else ""
    out = [Signature(owner, f"public class {owner}", "", path)] if owner else []
    for m in _JAVA_CTOR.finditer(source):
        if m["name"] == owner:
            out.append(Signature(owner, f"{owner}({squash(m['args'])})", "", path))
    for m in _JAVA_METHOD.finditer(source):
        if m["type"].strip() in ("class", "interface", "record"):
            continue
        mods = squash(m["mods"])
        sig = f"{mods + ' ' if mods else ''}{squash(m['type'])} {m['name']}({squash(m['args'])})"
        out.append(Signature(f"{owner}.{m['name']}" if owner else m["name"], sig, "", path))
    return out


_JAVA_TEST = re.compile(r"@Test\b[^;{]*?\bvoid\s+(?P<name>\w+)\s*\([^)]*\)[^{]*")


def java_examples(source: str) -> list[Example]:
    """Every ``@Test`` method body of a JUnit 5 file."""
    out = []
    for m in _JAVA_TEST.finditer(source):
        end = balanced_end(source, m.end(), "{", "}")
        if end > 0:
            out.append(Example(m["name"], dedent(source[m.end() + 1 : end - 1])))
    return out
