"""TODO-DOC"""

from __future__ import annotations

import re

from codeproof.languages.clike import balanced_end
from codeproof.languages.reading import Example, Signature, dedent

_JS_FUNCTION = re.compile(
    r"^[ \t]*(?:export\s+)?(?:async\s+)?function\s*\*?\s*(?P<name>\w+)\s*\((?P<args>[^)]*)\)",
    re.MULTILINE,
)


_JS_ARROW = re.compile(
    r"^[ \t]*(?:const|let|var)\s+(?P<name>\w+)\s*=\s*(?:async\s+)?"
    r"(?:function\s*\w*\s*\((?P<args>[^)]*)\)|\((?P<args2>[^)]*)\)\s*=>|(?P<arg>\w+)\s*=>)",
    re.MULTILINE,
)


_JS_CLASS = re.compile(r"^[ \t]*(?:export\s+)?class\s+(?P<name>\w+)", re.MULTILINE)


_JS_EXPORTS = re.compile(r"module\.exports\s*=\s*\{(?P<names>[^}]*)\}")


_JS_EXPORT_ONE = re.compile(r"(?:module\.)?exports\.(?P<name>\w+)\s*=")


_JS_EXPORT_DEFAULT = re.compile(r"module\.exports\s*=\s*(?P<name>\w+)\s*;?\s*$", re.MULTILINE)


def _js_exported(source: str) -> set[str] | None:
    names: set[str] = set()
    for block in _JS_EXPORTS.finditer(source):
        for part in block.group("names").split(","):
            key = part.split(":")[-1].strip()
            if re.fullmatch(r"\w+", key):
                names.add(key)
    names.update(m.group("name") for m in _JS_EXPORT_ONE.finditer(source))
    names.update(m.group("name") for m in _JS_EXPORT_DEFAULT.finditer(source))
    return names or None


def javascript_signatures(source: str, path: str) -> list[Signature]:
    """Top-level functions, arrow functions and classes; only exported ones if known."""
    found: list[tuple[int, Signature]] = []
    for m in _JS_FUNCTION.finditer(source):
        found.append((m.start(), Signature(m["name"], f"{m['name']}({m['args'].strip()})")))
    for m in _JS_ARROW.finditer(source):
        args = (m["args"] or m["args2"] or m["arg"] or "").strip()
        found.append((m.start(), Signature(m["name"], f"{m['name']}({args})")))
    for m in _JS_CLASS.finditer(source):
        found.append((m.start(), Signature(m["name"], f"class {m['name']}")))
    exported = _js_exported(source)
    found.sort(key=lambda item: item[0])
    return [
        Signature(s.name, s.signature, s.doc, path)
        for _, s in found
        if exported is None or s.name in exported
    ]


_JS_TEST = re.compile(r"\b(?:test|it)\s*\(\s*(['\"`])(?P<name>.+?)\1")


def javascript_examples(source: str) -> list[Example]:
    """Every ``test('name', ...)`` / ``it(...)`` body of a node:test file."""
    out = []
    for m in _JS_TEST.finditer(source):
        body_start = source.find("{", m.end())
        end = balanced_end(source, m.end(), "{", "}") if body_start >= 0 else -1
        if end > 0:
            out.append(Example(m["name"], dedent(source[body_start + 1 : end - 1])))
    return out
