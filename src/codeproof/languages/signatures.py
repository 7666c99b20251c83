"""Public signatures and passing-test examples read from code, without running it.

Python is read with :mod:`ast`; JavaScript and Java with regular expressions (good
enough for the flat modules codeproof generates).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Signature:
    """One public function, method or class."""

    name: str
    signature: str
    doc: str = ""
    file: str = ""


@dataclass(frozen=True)
class Example:
    """One test case's source, usable as a usage example."""

    name: str
    code: str


SignatureReader = Callable[[str, str], list[Signature]]
ExampleReader = Callable[[str], list[Example]]


def _py_function(node: ast.FunctionDef | ast.AsyncFunctionDef, prefix: str = "") -> str:
    sig = f"{prefix}{node.name}({ast.unparse(node.args)})"
    if node.returns is not None:
        sig += f" -> {ast.unparse(node.returns)}"
    return ("async " if isinstance(node, ast.AsyncFunctionDef) else "") + sig


def _first_line(doc: str | None) -> str:
    return doc.strip().splitlines()[0].strip() if doc and doc.strip() else ""


def python_signatures(source: str, path: str) -> list[Signature]:
    """Public top-level functions and classes (with their public methods)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    out = []
    for node in tree.body:
        if str(getattr(node, "name", "")).startswith("_"):
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append(Signature(node.name, _py_function(node), _doc(node), path))
        elif isinstance(node, ast.ClassDef):
            bases = ", ".join(ast.unparse(b) for b in node.bases)
            out.append(Signature(node.name, f"class {node.name}({bases})", _doc(node), path))
            out.extend(_py_methods(node, path))
    return out


def _doc(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> str:
    return _first_line(ast.get_docstring(node))


def _py_methods(cls: ast.ClassDef, path: str) -> list[Signature]:
    out = []
    for item in cls.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and (
            item.name == "__init__" or not item.name.startswith("_")
        ):
            name = f"{cls.name}.{item.name}"
            out.append(Signature(name, _py_function(item, f"{cls.name}."), _doc(item), path))
    return out


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
            out.append(Signature(owner, f"{owner}({_squash(m['args'])})", "", path))
    for m in _JAVA_METHOD.finditer(source):
        if m["type"].strip() in ("class", "interface", "record"):
            continue
        mods = _squash(m["mods"])
        sig = f"{mods + ' ' if mods else ''}{_squash(m['type'])} {m['name']}({_squash(m['args'])})"
        out.append(Signature(f"{owner}.{m['name']}" if owner else m["name"], sig, "", path))
    return out


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


SIGNATURE_READERS: dict[str, SignatureReader] = {
    "python": python_signatures,
    "javascript": javascript_signatures,
    "java": java_signatures,
}


def signatures(files: Mapping[str, str], language: str) -> list[Signature]:
    """Public signatures of every file (unknown language: none)."""
    reader = SIGNATURE_READERS.get(language)
    if reader is None:
        return []
    return [sig for path, content in files.items() for sig in reader(content, path)]


def python_examples(source: str) -> list[Example]:
    """Every top-level test function of a pytest file."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    out = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            body = [ast.get_source_segment(source, stmt) or "" for stmt in node.body]
            code = "\n".join(b for b in body if b and not _is_docstring(b))
            if code:
                out.append(Example(node.name, code))
    return out


def _is_docstring(code: str) -> bool:
    return code.startswith(('"""', "'''"))


def _balanced_end(text: str, start: int, opener: str, closer: str) -> int:
    """Index just after the bracket closing the first ``opener`` at or after ``start``."""
    depth = 0
    quote: str | None = None
    i = text.find(opener, start)
    if i < 0:
        return -1
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"`":
            quote = ch
        elif ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


_JS_TEST = re.compile(r"\b(?:test|it)\s*\(\s*(['\"`])(?P<name>.+?)\1")


def javascript_examples(source: str) -> list[Example]:
    """Every ``test('name', ...)`` / ``it(...)`` body of a node:test file."""
    out = []
    for m in _JS_TEST.finditer(source):
        body_start = source.find("{", m.end())
        end = _balanced_end(source, m.end(), "{", "}") if body_start >= 0 else -1
        if end > 0:
            out.append(Example(m["name"], _dedent(source[body_start + 1 : end - 1])))
    return out


_JAVA_TEST = re.compile(r"@Test\b[^;{]*?\bvoid\s+(?P<name>\w+)\s*\([^)]*\)[^{]*")


def java_examples(source: str) -> list[Example]:
    """Every ``@Test`` method body of a JUnit 5 file."""
    out = []
    for m in _JAVA_TEST.finditer(source):
        end = _balanced_end(source, m.end(), "{", "}")
        if end > 0:
            out.append(Example(m["name"], _dedent(source[m.end() + 1 : end - 1])))
    return out


def _dedent(code: str) -> str:
    lines = code.strip("\n").splitlines()
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return "\n".join(line[cut:] for line in lines).strip()


EXAMPLE_READERS: dict[str, ExampleReader] = {
    "python": python_examples,
    "javascript": javascript_examples,
    "java": java_examples,
}


def examples(tests: Mapping[str, str], language: str) -> list[Example]:
    """Every test case of ``tests`` as an example (unknown language: none)."""
    reader = EXAMPLE_READERS.get(language)
    if reader is None:
        return []
    return [ex for content in tests.values() for ex in reader(content)]
