"""Code in model replies: the one format the agents ask for, and a tolerant parser.

The agents never ask a model to put code inside JSON strings (small models break the
escaping). They ask for fenced blocks, each preceded by its path::

    File: slugify.py
    ```python
    def slugify(text): ...
    ```

The parser also accepts the path in the fence info (```` ```python slugify.py ````),
a path comment on the block's first line (``# slugify.py``), prose around the blocks,
a missing closing fence (truncated reply) and a reply with no fence at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from codeproof.languages import registry
from codeproof.languages.layout import Layout

FILE_FORMAT = """Reply format: for each file, write the line "File: <path>" and then the \
complete file in a fenced code block, like this:

File: {path}
```{tag}
<complete file content>
```"""

_CODE_EXTENSIONS = "py|js|cjs|mjs|ts|java|json|toml|cfg|ini|txt|md|yaml|yml|sh"
_PATH = re.compile(rf"(?<![\w/.-])((?:[\w-]+/)*[\w.-]*\w\.(?:{_CODE_EXTENSIONS}))(?![\w/-])")
_OPEN = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*?)[ \t]*$")
_PATH_COMMENT = re.compile(
    r"^\s*(?:#|//|/\*|<!--)\s*(?:(?:file(?:name)?|path)\s*:\s*)?(?P<path>\S+?)\s*(?:\*/|-->)?\s*$",
    re.IGNORECASE,
)
_LANG_TOKEN = re.compile(r"^[A-Za-z][\w+#-]*$")
_NON_CODE_TAGS = frozenset(
    {"bash", "sh", "shell", "console", "text", "txt", "output", "plaintext", "json", "diff"}
)


@dataclass(frozen=True)
class CodeBlock:
    """One block of code found in a reply."""

    code: str
    path: str | None = None
    lang: str | None = None
    closed: bool = True


def clean_path(path: str) -> str | None:
    """A safe relative POSIX path, or None when ``path`` is absolute or escapes the root."""
    text = path.strip().strip("`'\"*:,;()[]").replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    if not text or text.startswith("/") or re.match(r"^[A-Za-z]:", text):
        return None
    normal = PurePosixPath(text)
    if ".." in normal.parts or not _PATH.fullmatch(normal.as_posix()):
        return None
    return normal.as_posix()


def _path_in(text: str, *, last: bool) -> str | None:
    matches = [clean_path(m) for m in _PATH.findall(text)]
    found = [m for m in matches if m]
    if not found:
        return None
    return found[-1] if last else found[0]


def _parse_info(info: str) -> tuple[str | None, str | None]:
    tokens = [t for t in re.split(r"[\s{}=\"']+", info) if t]
    lang = None
    if tokens and _LANG_TOKEN.match(tokens[0]) and "." not in tokens[0]:
        lang = tokens[0].lstrip(".").lower()
    return lang, _path_in(info, last=False)


def _label_before(lines: list[str], index: int) -> str | None:
    """A path on the last non-blank line before ``index`` (within two lines)."""
    for back in (1, 2):
        pos = index - back
        if pos < 0:
            return None
        line = lines[pos].strip()
        if line:
            if len(line) > 160 or _OPEN.match(line):
                return None
            return _path_in(line, last=True)
    return None


def _path_from_first_line(code: str) -> str | None:
    first = code.split("\n", 1)[0]
    match = _PATH_COMMENT.match(first)
    return clean_path(match.group("path")) if match else None


def extract_blocks(text: str) -> list[CodeBlock]:
    """Every fenced block of ``text`` with its path and language, in order.

    A block whose closing fence is missing runs to the end of the text.
    """
    lines = text.splitlines()
    blocks: list[CodeBlock] = []
    i = 0
    while i < len(lines):
        opened = _OPEN.match(lines[i])
        if not opened:
            i += 1
            continue
        fence = opened.group("fence")
        lang, path = _parse_info(opened.group("info"))
        path = path or _label_before(lines, i)
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        end = i + 1
        while end < len(lines) and not closing.match(lines[end]):
            end += 1
        code = "\n".join(lines[i + 1 : end]).strip("\n")
        path = path or _path_from_first_line(code)
        blocks.append(CodeBlock(code=code + "\n", path=path, lang=lang, closed=end < len(lines)))
        i = end + 1
    return blocks


def reply_files(text: str) -> tuple[dict[str, str], int]:
    """The files of a reply that names each file's path (the first block of a path wins),
    and how many code blocks had no path (they cannot be placed, so they are left out)."""
    files: dict[str, str] = {}
    unnamed = 0
    for block in extract_blocks(text):
        if not block.code.strip():
            continue
        if block.path is None:
            unnamed += 1
            continue
        files.setdefault(block.path, block.code)
    return files, unnamed


def prose(text: str) -> str:
    """The text outside the fenced blocks, whitespace-collapsed."""
    lines = text.splitlines()
    kept: list[str] = []
    inside: str | None = None
    for line in lines:
        opened = _OPEN.match(line)
        if inside is None and opened:
            inside = opened.group("fence")[0]
            continue
        if inside is not None:
            if re.match(rf"^[ \t]*{re.escape(inside)}{{3,}}[ \t]*$", line):
                inside = None
            continue
        kept.append(line.strip())
    return " ".join(k for k in kept if k)


def strip_prose(text: str, language: str) -> str:
    """Code of an unfenced reply: drop the prose lines before the first code line.

    For a known language, a reply without any line that starts like code is all prose
    and gives an empty string.
    """
    found = registry.find(language)
    start = found.layout.code_start if found is not None else None
    lines = text.strip("\n").splitlines()
    if start is not None:
        first = next((i for i, line in enumerate(lines) if start.match(line)), len(lines))
        lines = lines[first:]
    return "\n".join(lines).strip("\n") + "\n" if lines else ""


def code_blocks(text: str, layout: Layout) -> list[CodeBlock]:
    """The blocks of ``text`` that may be files of ``layout``'s language.

    Blocks tagged with another language (shell, JSON, ...) and blocks whose path is not
    a file of the language are dropped. A reply without any fence counts as one block.
    """
    blocks = extract_blocks(text)
    if not blocks:
        code = strip_prose(text, layout.language)
        return [CodeBlock(code=code, closed=False)] if code.strip() else []
    kept = []
    for block in blocks:
        if not block.code.strip():
            continue
        if block.path is not None:
            if layout.owns(block.path):
                kept.append(block)
            continue
        if block.lang is None or block.lang in layout.fence_tags:
            kept.append(block)
        elif block.lang not in _NON_CODE_TAGS and block.lang not in registry.fence_tags_except(
            layout.language
        ):
            kept.append(block)  # an unknown tag ("code", "python-repl"...): still a candidate
    return kept


def looks_like_tests(block: CodeBlock, layout: Layout) -> bool:
    """Whether a block's content defines test cases."""
    return bool(layout.test_marker.search(block.code))


def pick_unlabelled(blocks: list[CodeBlock], layout: Layout, *, tests: bool) -> CodeBlock | None:
    """The pathless block that stands for the default file.

    A single block is the file. Of several, the largest one of the wanted kind (test or
    source) wins; the others are usually usage examples.
    """
    pathless = [b for b in blocks if b.path is None]
    if len(pathless) <= 1:
        return pathless[0] if pathless else None
    wanted = [b for b in pathless if looks_like_tests(b, layout) == tests]
    return max(wanted or pathless, key=lambda b: len(b.code))


def render_file(path: str, content: str, layout: Layout) -> str:
    """One file in the reply format (for prompts that show files to a model)."""
    return f"File: {path}\n```{layout.fence_tag}\n{content.rstrip()}\n```"
