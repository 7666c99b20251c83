"""Code chunks by symbol, with tree-sitter: functions, classes and methods.

A function or method is one chunk: its leading comment (JSDoc, Javadoc), decorators,
signature, docstring and body (clipped). A class is one chunk of its API: its signature,
docstring and the signatures of its members. A file gets one ``module`` chunk too: its
docstring and the signatures of its top-level definitions. A file without definitions
is cut into windows of lines. Each language says which node kinds are which (its
``Language.chunking``, :mod:`codeproof.languages.chunking`); the tree is its syntax
grammar's (``languages/<name>/syntax.py``).
"""

from __future__ import annotations

import logging
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

import tree_sitter as ts

from codeproof.languages import registry
from codeproof.languages.chunking import Chunking
from codeproof.languages.syntax import find_grammar, grammar_for
from codeproof.retrieval.models import Chunk, Document

logger = logging.getLogger(__name__)

MAX_CHUNK_CHARS = 3000
"""A longer definition keeps its head (signature, docstring, first lines)."""
WINDOW_LINES = 60


def chunking_of(name: str) -> Chunking | None:
    """How the language named ``name`` (a document's format) is chunked by symbol, if it
    is (``None``: cut into windows of lines)."""
    language = registry.find(name)
    if language is None or language.name != name or find_grammar(name) is None:
        return None
    return language.chunking


@cache
def _parser(language: str) -> ts.Parser:
    return ts.Parser(ts.Language(grammar_for(language).language()))


@dataclass
class _File:
    """One file being chunked: its bytes, node kinds and the chunks found so far."""

    doc: Document
    source: bytes
    chunking: Chunking
    language: str
    chunks: list[Chunk] = field(default_factory=list)
    top: list[str] = field(default_factory=list)

    def text(self, start: int, end: int) -> str:
        return self.source[start:end].decode("utf-8", "replace")

    def block(self, start: ts.Node, end: int) -> str:
        """The text from ``start`` to byte ``end``, dedented as a whole."""
        return textwrap.dedent(" " * start.start_point[1] + self.text(start.start_byte, end))

    def line(self, node: ts.Node) -> int:
        return self.doc.line + node.start_point[0]

    def end_line(self, node: ts.Node) -> int:
        return self.doc.line + node.end_point[0]


def chunk_code(doc: Document) -> list[Chunk]:
    """The chunks of one source file (by symbol when its language says how:
    :func:`chunking_of`)."""
    chunking = chunking_of(doc.format)
    if chunking is None:
        return window_chunks(doc, kind="module")
    source = doc.text.encode("utf-8", "surrogatepass")
    tree = _parser(doc.format).parse(source)
    f = _File(doc, source, chunking, doc.format)
    _walk(f, tree.root_node, [])
    module_doc = _docstring(f, tree.root_node) if chunking.docstring_first else ""
    if not f.chunks and not module_doc:
        return window_chunks(doc, kind="module")
    overview = "\n".join(p for p in (module_doc, *f.top) if p)
    if overview:
        f.chunks.insert(
            0,
            Chunk(
                path=doc.path,
                start_line=doc.line,
                end_line=doc.line + max(len(doc.text.splitlines()), 1) - 1,
                text=f"# {doc.path}\n{overview}",
                symbol=_module_name(doc.path),
                kind="module",
                language=doc.format,
                url=doc.url,
            ),
        )
    return f.chunks


def _module_name(path: str) -> str:
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return stem


def _walk(f: _File, node: ts.Node, scope: list[str]) -> list[str]:
    """Chunk the definitions among ``node``'s children; return their signatures."""
    signatures: list[str] = []
    children = node.named_children
    for index, child in enumerate(children):
        for outer, definition, name in _definitions(f, child):
            comment = _leading_comment(f, children, index)
            signature = _signature(f, outer, definition)
            signatures.append(signature)
            if not scope:
                f.top.append(signature)
            qualified = ".".join([*scope, name])
            if definition.type in f.chunking.classes:
                _class_chunk(f, outer, definition, qualified, signature, comment)
            else:
                kind = "method" if scope else "function"
                _function_chunk(f, outer, definition, qualified, signature, comment, kind)
    return signatures


def _definitions(f: _File, node: ts.Node) -> Iterator[tuple[ts.Node, ts.Node, str]]:
    """``(outer node, definition, name)`` for a definition (possibly wrapped)."""
    g = f.chunking
    inner = node
    while inner.type in g.wrappers:
        found = next(
            (c for c in inner.named_children if c.type in g.functions | g.classes | g.variables),
            None,
        )
        if found is None:
            return
        inner = found
    if inner.type in g.functions or inner.type in g.classes:
        name = inner.child_by_field_name("name")
        if name is not None and name.text is not None:
            yield node, inner, name.text.decode("utf-8", "replace")
    elif inner.type in g.variables:
        for declarator in inner.named_children:
            value = declarator.child_by_field_name("value")
            name = declarator.child_by_field_name("name")
            if value is not None and value.type in g.function_values and name is not None:
                yield node, declarator, (name.text or b"").decode("utf-8", "replace")


def _leading_comment(f: _File, siblings: list[ts.Node], index: int) -> ts.Node | None:
    """The comment ending on the line just above ``siblings[index]``, if any."""
    if index == 0:
        return None
    previous, node = siblings[index - 1], siblings[index]
    if previous.type in f.chunking.comments and previous.end_point[0] >= node.start_point[0] - 1:
        return previous
    return None


def _body(definition: ts.Node) -> ts.Node | None:
    body = definition.child_by_field_name("body")
    if body is None:
        value = definition.child_by_field_name("value")  # const f = (a) => { ... }
        body = value.child_by_field_name("body") if value is not None else None
    return body


def _signature(f: _File, outer: ts.Node, definition: ts.Node) -> str:
    """The definition's text up to its body, on one line (``export`` kept, decorators
    not)."""
    body = _body(definition)
    end = body.start_byte if body is not None else definition.end_byte
    start = outer if f.chunking.signature_from_wrapper else definition
    if definition.type in f.chunking.variables or start.type in f.chunking.variables:
        start = outer
    text = " ".join(f.text(start.start_byte, end).split())
    if f.chunking.strip_colon:
        text = text.removesuffix(":").rstrip()
    return text.removesuffix("=>").removesuffix(";").rstrip()


def _docstring(f: _File, container: ts.Node) -> str:
    """The first statement of ``container`` when it is a string (Python)."""
    first = next(iter(container.named_children), None)
    if first is None or first.type != "expression_statement":
        return ""
    string = next(iter(first.named_children), None)
    if string is None or string.type not in ("string", "concatenated_string"):
        return ""
    return f.text(first.start_byte, first.end_byte)


def _function_chunk(
    f: _File,
    outer: ts.Node,
    definition: ts.Node,
    qualified: str,
    signature: str,
    comment: ts.Node | None,
    kind: str,
) -> None:
    start = comment if comment is not None else outer
    text = f.block(start, outer.end_byte)
    if len(text) > MAX_CHUNK_CHARS:
        text = text[:MAX_CHUNK_CHARS].rstrip() + "\n    ..."
    f.chunks.append(
        Chunk(
            path=f.doc.path,
            start_line=f.line(start),
            end_line=f.end_line(outer),
            text=text,
            symbol=qualified,
            signature=signature,
            kind=kind,
            language=f.language,
            url=f.doc.url,
        )
    )


def _class_chunk(
    f: _File,
    outer: ts.Node,
    definition: ts.Node,
    qualified: str,
    signature: str,
    comment: ts.Node | None,
) -> None:
    body = _body(definition)
    members = _walk(f, body, qualified.split(".")) if body is not None else []
    at = len(f.chunks) - sum(1 for c in f.chunks if c.symbol.startswith(qualified + "."))
    doc = _docstring(f, body) if body is not None and f.chunking.docstring_first else ""
    lead = f.block(comment, comment.end_byte) if comment is not None else ""
    head = (  # decorators
        "" if f.chunking.signature_from_wrapper else f.text(outer.start_byte, definition.start_byte)
    ).strip()
    fields = _fields(f, body, doc) if body is not None else []
    indented = [f"    {m}" for m in (*fields, *members)]
    parts = (lead, head, signature, f"    {doc}" if doc else "", *indented)
    text = "\n".join(p for p in parts if p)
    start = comment if comment is not None else outer
    f.chunks.insert(
        at,
        Chunk(
            path=f.doc.path,
            start_line=f.line(start),
            end_line=f.end_line(outer),
            text=text,
            symbol=qualified,
            signature=signature,
            kind="class",
            language=f.language,
            url=f.doc.url,
        ),
    )


def _fields(f: _File, body: ts.Node, docstring: str) -> list[str]:
    """The first lines of a class body's field declarations."""
    out = []
    for child in body.named_children:
        if child.type not in f.chunking.fields:
            continue
        text = f.text(child.start_byte, child.end_byte).strip()
        if text == docstring or not text or text[0] in "\"'":
            continue  # the docstring, or a bare string
        out.append(text.splitlines()[0][:120])
    return out


def window_chunks(doc: Document, *, kind: str, lines: int = WINDOW_LINES) -> list[Chunk]:
    """``doc`` cut into windows of ``lines`` lines (blank windows dropped)."""
    all_lines = doc.text.splitlines()
    out = []
    for start in range(0, len(all_lines), lines):
        window = all_lines[start : start + lines]
        text = "\n".join(window).strip()
        if not text:
            continue
        out.append(
            Chunk(
                path=doc.path,
                start_line=doc.line + start,
                end_line=doc.line + start + len(window) - 1,
                text=text[: MAX_CHUNK_CHARS * 2],
                symbol=doc.title or _module_name(doc.path),
                kind=kind,
                language=doc.format,
                url=doc.url,
            )
        )
    return out
