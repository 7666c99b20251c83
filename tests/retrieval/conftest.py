"""Fixtures of the retrieval tests: the source fixtures and a scratch index."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from retrieval_doubles import FIXTURES, WordsEmbedder

from codeproof.retrieval.index import Index
from codeproof.retrieval.sources import Limits

collect_ignore_glob = ["fixtures/*"]  # the fixture project's own tests are data here


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the fixture project as a git repository with one commit."""
    root = tmp_path / "tidepool-project"
    shutil.copytree(FIXTURES / "project", root)
    (root / "scratch").mkdir()
    (root / "scratch" / "notes.py").write_text("def ignored_by_git(): pass\n")
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q", "-b", "main"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "fixture"], check=True)
    return root


@pytest.fixture
def words() -> WordsEmbedder:
    return WordsEmbedder()


@pytest.fixture
def index(tmp_path: Path, words: WordsEmbedder) -> Index:
    return Index(tmp_path / "index", "lancedb", words, Limits())
