"""The six kinds of sources and the documents each yields.

``code``: a project folder or git repository (tracked and untracked-but-not-ignored
files), or installed packages' source (a virtualenv, its site-packages, a node_modules);
``docs``: a folder of Markdown/HTML/text documentation; ``qa``: a Stack Exchange
``Posts.xml`` dump (see :mod:`.records`); ``issues``: GitHub REST issue exports (JSON);
``verified``: the modules that passed in earlier codeproof runs (the run store).
Listing is chosen from :data:`LISTERS` by kind.
"""

from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from codeproof.core.errors import InputError
from codeproof.languages import registry
from codeproof.retrieval.models import Document, SourceKind
from codeproof.retrieval.records import issue_documents, qa_documents, verified_documents

logger = logging.getLogger(__name__)

FILE_FORMATS: dict[str, str] = {
    ".ts": "typescript", ".tsx": "typescript", ".go": "go", ".rs": "rust", ".rb": "ruby",
    ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp",
    ".kt": "kotlin", ".scala": "scala", ".php": "php", ".sh": "shell", ".sql": "sql",
    ".toml": "toml", ".cfg": "ini", ".ini": "ini", ".yaml": "yaml", ".yml": "yaml",
}  # fmt: skip
"""File suffix -> format of code files in languages codeproof has no package for."""

CODE_FORMATS: dict[str, str] = {**FILE_FORMATS, **registry.formats()}
"""File suffix -> format of code files: codeproof's languages (their layouts' extensions,
chunked by symbol) and the other file formats."""

DOC_FORMATS: dict[str, str] = {
    ".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html",
    ".rst": "text", ".txt": "text",
}  # fmt: skip
"""File suffix -> format of documentation files."""

SKIP_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".venv", "venv", "__pycache__", ".mypy_cache", ".ruff_cache",
        ".pytest_cache", ".tox", "node_modules", "build", "dist", ".idea", ".vscode",
        "site-packages", ".codeproof",
    }
)  # fmt: skip
"""Directories a project walk never enters."""

PACKAGE_SKIP_DIRS = frozenset({"__pycache__", "test", "tests", "testing", ".bin", "docs"})
PACKAGE_SUFFIXES = registry.extensions()
"""What is read of installed packages: the sources of codeproof's languages."""


@dataclass(frozen=True)
class Limits:
    """What listing skips."""

    max_file_bytes: int = 400_000


Lister = Callable[[Path, Limits], Iterator[Document]]


def _read(path: Path, limits: Limits) -> str | None:
    """The file's text, or ``None`` when too large or not UTF-8 text."""
    try:
        if path.stat().st_size > limits.max_file_bytes:
            logger.info("skipped %s: larger than %d bytes", path, limits.max_file_bytes)
            return None
        data = path.read_bytes()
    except OSError as exc:
        logger.info("skipped %s: %s", path, exc)
        return None
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _document(root: Path, path: Path, formats: dict[str, str], limits: Limits) -> Document | None:
    fmt = formats.get(path.suffix.lower())
    if fmt is None:
        return None
    text = _read(path, limits)
    if text is None or not text.strip():
        return None
    rel = path.relative_to(root).as_posix() if path != root else path.name
    return Document(path=rel, text=text, format=fmt, title=path.name)


def _walk(root: Path, skip: frozenset[str]) -> Iterator[Path]:
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in skip and not d.startswith("."))
        for name in sorted(files):
            yield Path(folder) / name


def _git_files(root: Path) -> list[Path] | None:
    """Files git tracks or would track (ignored ones excluded); ``None`` without git."""
    if not (root / ".git").exists():
        return None
    try:
        done = subprocess.run(
            [
                "git",
                "-C",
                str(root),
                "ls-files",
                "-z",
                "--cached",
                "--others",
                "--exclude-standard",
            ],
            capture_output=True,
            check=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        logger.info("git ls-files failed in %s (%s); walking the folder", root, exc)
        return None
    names = [n for n in done.stdout.decode("utf-8", "replace").split("\0") if n]
    return sorted(root / n for n in names if not set(PurePosixPath(n).parts) & SKIP_DIRS)


def package_roots(root: Path) -> list[Path] | None:
    """The package directories under ``root`` when it is a virtualenv, a site-packages
    or a node_modules (``None`` for an ordinary project)."""
    if (root / "pyvenv.cfg").is_file():
        return sorted(root.glob("lib/python*/site-packages")) or None
    if root.name in ("site-packages", "dist-packages", "node_modules"):
        return [root]
    return None


def code_documents(root: Path, limits: Limits) -> Iterator[Document]:
    """A project's code and docs, or installed packages' source."""
    if root.is_file():
        formats = {**CODE_FORMATS, **DOC_FORMATS}
        doc = _document(root.parent, root, formats, limits)
        yield from [doc] if doc else []
        return
    packages = package_roots(root)
    if packages is not None:
        for base in packages:
            for path in _walk(base, PACKAGE_SKIP_DIRS):
                if path.suffix in PACKAGE_SUFFIXES and not path.name.endswith(".min.js"):
                    doc = _document(root, path, CODE_FORMATS, limits)
                    yield from [doc] if doc else []
        return
    files: Iterable[Path] = _git_files(root) or _walk(root, SKIP_DIRS)
    formats = {**CODE_FORMATS, **DOC_FORMATS}
    for path in files:
        if path.is_file():
            doc = _document(root, path, formats, limits)
            yield from [doc] if doc else []


def docs_documents(root: Path, limits: Limits) -> Iterator[Document]:
    """Markdown, HTML and text files of a documentation folder (or one file)."""
    files = [root] if root.is_file() else _walk(root, frozenset({"_static", "_sources"}))
    for path in files:
        doc = _document(root if root.is_dir() else root.parent, path, DOC_FORMATS, limits)
        yield from [doc] if doc else []


LISTERS: dict[SourceKind, Lister] = {
    "code": code_documents,
    "docs": docs_documents,
    "qa": qa_documents,
    "issues": issue_documents,
    "verified": verified_documents,
}
"""Source kind -> how its documents are listed."""


def documents(kind: SourceKind, path: Path, limits: Limits) -> Iterator[Document]:
    """The documents of a source.

    Raises:
        InputError: ``path`` does not exist.
    """
    if not path.exists():
        raise InputError(f"{path} does not exist", hint="give an existing file or folder")
    return LISTERS[kind](path, limits)


def guess_kind(path: Path) -> SourceKind:
    """The kind a path most likely is (``--kind`` not given)."""
    if path.is_file():
        if path.name == "Posts.xml":
            return "qa"
        if path.suffix == ".json":
            return "issues"
        if path.name.endswith(".sqlite3"):
            return "verified"
        return "docs" if path.suffix.lower() in DOC_FORMATS else "code"
    if (path / "Posts.xml").is_file():
        return "qa"
    if (path / "runs.sqlite3").is_file():
        return "verified"
    if package_roots(path) is not None or (path / ".git").exists():
        return "code"
    suffixes = [p.suffix.lower() for p in _walk(path, SKIP_DIRS)]
    docs = sum(s in DOC_FORMATS for s in suffixes)
    code = sum(s in CODE_FORMATS for s in suffixes)
    if suffixes and all(s == ".json" for s in suffixes):
        return "issues"
    return "docs" if docs > code else "code"
