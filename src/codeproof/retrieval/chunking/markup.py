"""Documentation chunks by heading: Markdown (markdown-it), HTML (html.parser), text.

Each section runs from its heading to the next heading and is named by its heading
path (``Guide > Install > Linux``). A long section is cut at paragraph breaks into
parts of at most :data:`MAX_SECTION_CHARS`. HTML loses its scripts, styles and
navigation; ``<pre>`` keeps its line breaks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from markdown_it import MarkdownIt

from codeproof.retrieval.models import Chunk, Document

MAX_SECTION_CHARS = 2000


@dataclass
class Section:
    """A heading and the lines under it (line numbers 1-based in the document)."""

    level: int
    title: str
    start_line: int
    lines: list[str] = field(default_factory=list)


def chunk_markdown(doc: Document) -> list[Chunk]:
    """Sections of a Markdown document by its headings (fenced code is not a heading)."""
    lines = doc.text.splitlines()
    starts: list[tuple[int, int, str]] = []  # (line index, level, title)
    tokens = MarkdownIt("commonmark").parse(doc.text)
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.map is not None:
            title = tokens[i + 1].content if i + 1 < len(tokens) else ""
            starts.append((token.map[0], int(token.tag[1:]), title.strip()))
    sections = []
    if not starts or starts[0][0] > 0:
        first = starts[0][0] if starts else len(lines)
        sections.append(Section(0, doc.title, 1, lines[:first]))
    for n, (index, level, title) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        sections.append(Section(level, title, index + 1, lines[index:end]))
    return section_chunks(doc, sections)


def chunk_text(doc: Document) -> list[Chunk]:
    """A plain text document as one section (cut at paragraph breaks)."""
    return section_chunks(doc, [Section(0, doc.title, 1, doc.text.splitlines())])


def chunk_html(doc: Document) -> list[Chunk]:
    """Sections of an HTML page by its ``<h1>``..``<h6>`` headings."""
    parser = _SectionParser()
    parser.feed(doc.text)
    parser.close()
    sections = parser.sections
    if sections and not sections[0].title:
        sections[0].title = parser.title or doc.title
    return section_chunks(doc, sections)


def section_chunks(doc: Document, sections: list[Section]) -> list[Chunk]:
    """Chunks of ``sections``: named by heading path, long ones cut at blank lines."""
    out: list[Chunk] = []
    path: list[tuple[int, str]] = []
    for section in sections:
        while path and path[-1][0] >= section.level > 0:
            path.pop()
        if section.level > 0:
            path.append((section.level, section.title))
        names = [t for _, t in path if t] or [section.title or doc.title or doc.path]
        symbol = " > ".join(names)
        for first, part in _parts(section):
            if part and part[0].strip().lstrip("#").strip() == section.title:
                part = ["", *part[1:]]  # the heading is in the symbol
            text = "\n".join(part).strip()
            if not text or text == section.title:
                continue
            out.append(
                Chunk(
                    path=doc.path,
                    start_line=doc.line + first - 1,
                    end_line=doc.line + first - 1 + len(part) - 1,
                    text=text if text.startswith(symbol) else f"{symbol}\n{text}",
                    symbol=symbol,
                    kind="section",
                    language=doc.format,
                    url=doc.url,
                )
            )
    return out


def _parts(section: Section) -> list[tuple[int, list[str]]]:
    """The section's lines in parts of at most MAX_SECTION_CHARS, cut at blank lines."""
    parts: list[tuple[int, list[str]]] = []
    current: list[str] = []
    first = section.start_line
    size = 0
    for offset, line in enumerate(section.lines):
        if size + len(line) > MAX_SECTION_CHARS and current and not line.strip():
            parts.append((first, current))
            current, size, first = [], 0, section.start_line + offset + 1
            continue
        if size + len(line) > MAX_SECTION_CHARS * 2 and current:  # no blank line for long
            parts.append((first, current))
            current, size, first = [], 0, section.start_line + offset
        current.append(line)
        size += len(line) + 1
    if current:
        parts.append((first, current))
    return parts


_SKIP = frozenset({"script", "style", "nav", "noscript", "template", "svg", "head"})
_BLOCK = frozenset(
    {
        "p", "div", "li", "ul", "ol", "br", "tr", "table", "section", "article", "dt", "dd",
        "dl", "blockquote", "pre", "hr", "main", "header", "footer", "td", "th",
    }
)  # fmt: skip
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_SPACES = re.compile(r"\s+")


class _SectionParser(HTMLParser):
    """Collects visible text into sections split at headings, with line numbers."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[Section] = [Section(0, "", 1)]
        self.title = ""
        self._skip = 0
        self._pre = 0
        self._heading: tuple[int, int, list[str]] | None = None
        self._in_title = False
        self._line: list[str] = []
        self._line_no = 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self._skip += 1
        elif tag == "title":
            self._in_title = True
        elif tag in _HEADINGS and not self._skip:
            self._flush()
            self._heading = (_HEADINGS[tag], self.getpos()[0], [])
        elif tag in _BLOCK:
            self._flush()
            self._pre += tag == "pre"

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag == "title":
            self._in_title = False
        elif tag in _HEADINGS and self._heading is not None:
            level, line, words = self._heading
            title = " ".join("".join(words).split())
            self._heading = None
            self.sections.append(Section(level, title, line, [title]))
        elif tag in _BLOCK:
            self._flush()
            self._pre -= tag == "pre" and self._pre > 0

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += " ".join(data.split())
            return
        if self._skip:
            return
        if self._heading is not None:
            self._heading[2].append(data)
            return
        if not self._line:
            self._line_no = self.getpos()[0]
        if self._pre:
            pieces = data.split("\n")
            self._line.append(pieces[0])
            for piece in pieces[1:]:
                self._flush(keep_blank=True)
                self._line.append(piece)
        else:
            self._line.append(_SPACES.sub(" ", data))

    def _flush(self, *, keep_blank: bool = False) -> None:
        text = "".join(self._line)
        self._line = []
        if not text.strip() and not keep_blank:
            return
        section = self.sections[-1]
        line = text if self._pre else text.strip()
        while section.start_line + len(section.lines) < self._line_no:
            section.lines.append("")  # keep line numbers aligned with the file
        section.lines.append(line)

    def close(self) -> None:
        self._flush()
        super().close()


def html_text(fragment: str) -> str:
    """The visible text of an HTML fragment, one block per line."""
    parser = _SectionParser()
    parser.feed(fragment)
    parser.close()
    lines = [line for s in parser.sections for line in s.lines]
    return "\n".join(line for line in lines if line.strip())
