"""The six kinds of sources, each from a small fixture in its real format."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from retrieval_doubles import FIXTURES

from codeproof.core.errors import InputError
from codeproof.core.reports import ModuleOutcome
from codeproof.core.types import Module
from codeproof.retrieval.models import Document
from codeproof.retrieval.sources import Limits, documents, guess_kind
from codeproof.workflow.store import RunStore


def paths(kind: str, root: Path) -> list[str]:
    return [d.path for d in documents(kind, root, Limits())]  # type: ignore[arg-type]


def test_a_git_project_lists_tracked_and_unignored_files(project: Path) -> None:
    (project / "tidepool" / "new_module.py").write_text("def fresh(): pass\n")  # untracked
    (project / "logo.png").write_bytes(b"\x89PNG\0\0")
    assert paths("code", project) == [
        "README.md",
        "tests/test_ledger.py",
        "tidepool/__init__.py",
        "tidepool/ledger.py",
        "tidepool/new_module.py",
        "tidepool/salinity.py",
    ]  # scratch/ is ignored by the project's .gitignore; binaries are skipped


def test_a_plain_folder_is_walked_without_caches_or_virtualenvs(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    shutil.copytree(FIXTURES / "project", root)
    for junk in ("__pycache__", ".venv/lib", "node_modules/x"):
        (root / junk).mkdir(parents=True)
        (root / junk / "junk.py").write_text("x = 1\n")
    found = paths("code", root)
    assert "tidepool/ledger.py" in found and "README.md" in found
    assert not [p for p in found if "junk" in p]


def test_file_formats_follow_the_suffix(project: Path) -> None:
    formats = {d.path: d.format for d in documents("code", project, Limits())}
    assert formats["tidepool/ledger.py"] == "python"
    assert formats["README.md"] == "markdown"


def test_too_large_files_are_skipped(project: Path) -> None:
    (project / "big.py").write_text("x = 1\n" * 1000)
    assert "big.py" not in [d.path for d in documents("code", project, Limits(2000))]


def make_venv(root: Path) -> Path:
    (root / "pyvenv.cfg").parent.mkdir(parents=True)
    (root / "pyvenv.cfg").write_text("home = /usr/bin\n")
    site = root / "lib" / "python3.11" / "site-packages"
    for rel, text in {
        "reefkit/__init__.py": '"""Reef kit."""\n',
        "reefkit/coral.py": "def bleach_risk(temp_c: float) -> float:\n    return temp_c / 30\n",
        "reefkit/tests/test_coral.py": "def test_x(): pass\n",
        "reefkit-1.0.dist-info/METADATA": "Name: reefkit\n",
        "reefkit/__pycache__/coral.cpython-311.pyc": "junk",
    }.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text)
    return site


def test_a_virtualenv_lists_its_packages_source(tmp_path: Path) -> None:
    make_venv(tmp_path / "venv")
    assert paths("code", tmp_path / "venv") == [
        "lib/python3.11/site-packages/reefkit/__init__.py",
        "lib/python3.11/site-packages/reefkit/coral.py",
    ]
    assert guess_kind(tmp_path / "venv") == "code"


def test_a_site_packages_folder_and_a_node_modules(tmp_path: Path) -> None:
    site = make_venv(tmp_path / "venv")
    assert paths("code", site) == ["reefkit/__init__.py", "reefkit/coral.py"]
    nm = tmp_path / "app" / "node_modules"
    for rel in ("tide/index.js", "tide/dist/tide.min.js", "tide/test/a.js", "tide/README.md"):
        (nm / rel).parent.mkdir(parents=True, exist_ok=True)
        (nm / rel).write_text("module.exports = {};\n")
    assert paths("code", nm) == ["tide/index.js"]


def test_a_docs_folder_lists_markdown_and_html() -> None:
    docs = list(documents("docs", FIXTURES / "docs", Limits()))
    assert [(d.path, d.format) for d in docs] == [("api.html", "html"), ("guide.md", "markdown")]
    assert guess_kind(FIXTURES / "docs") == "docs"


def test_stack_exchange_posts_pair_questions_with_their_accepted_answer() -> None:
    docs = {d.path: d for d in documents("qa", FIXTURES / "qa" / "Posts.xml", Limits())}
    assert sorted(docs) == ["Posts.xml#1", "Posts.xml#4", "Posts.xml#9"]  # 7: unanswered
    crabs = docs["Posts.xml#1"]
    assert crabs.title == "How do I count crabs over all pools?"
    assert crabs.line == 3  # the question's row
    assert "Tags: python, tidepool" in crabs.text
    assert 'Accepted answer:\n\nUse Ledger.tally("crab").' in crabs.text
    assert "Loop over the pools" not in crabs.text  # higher score, but not accepted
    brackish = docs["Posts.xml#4"]
    assert "Top answer (score 7):\n\nYes: call brackish(12)." in brackish.text
    assert "Tags: salinity" in brackish.text
    assert "listed before its question" in docs["Posts.xml#9"].text
    assert guess_kind(FIXTURES / "qa") == "qa"


def test_a_broken_posts_file_is_an_input_error(tmp_path: Path) -> None:
    bad = tmp_path / "Posts.xml"
    bad.write_text("<posts><row Id='1'")
    with pytest.raises(InputError, match=r"is not a readable Posts\.xml"):
        list(documents("qa", bad, Limits()))


def test_github_issues_with_comments_and_pull_requests() -> None:
    docs = {d.path: d for d in documents("issues", FIXTURES / "issues", Limits())}
    assert sorted(docs) == ["issues.json#12", "issues.json#15"]
    bug = docs["issues.json#12"]
    assert bug.url == "https://github.com/example/tidepool/issues/12"
    assert bug.text.startswith("Issue #12: tally() ignores counts of zero")
    assert "state: closed · labels: bug, ledger · by marina" in bug.text
    assert "Comment by reef:\nFixed: log() now raises ValueError" in bug.text
    assert docs["issues.json#15"].text.startswith("Pull request #15: Add mean_psu")
    assert guess_kind(FIXTURES / "issues") == "issues"


def test_a_broken_issues_file_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("[{")
    with pytest.raises(InputError, match="is not a readable JSON file"):
        list(documents("issues", tmp_path, Limits()))


def test_verified_modules_come_from_passed_runs(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    module = Module(name="brine", purpose="salt", language="python", public_interface="f()")
    passed = ModuleOutcome(
        module=module,
        files={"brine.py": "def saltiness(psu):\n    return psu / 35\n"},
        tests={"test_brine.py": "def test_s():\n    assert True\n"},
        status="passed",
    )
    failed = ModuleOutcome(
        module=module.model_copy(update={"name": "broken"}), files={"b.py": "x"}, status="failed"
    )
    with RunStore(runs) as store:
        store.create_run("r1", "a request", str(tmp_path / "out"), {})
        outcomes = [passed.model_dump(mode="json"), failed.model_dump(mode="json")]
        store.add_event("r1", "node_end", {"node": "finish", "output": {"outcomes": outcomes[:1]}})
        store.add_event("r1", "node_end", {"node": "finish", "output": {"outcomes": outcomes}})
        store.create_run("r2", "still running", str(tmp_path / "out2"), {})
    docs: list[Document] = list(documents("verified", runs, Limits()))
    assert [(d.path, d.format) for d in docs] == [
        ("r1/brine/brine.py", "python"),
        ("r1/brine/test_brine.py", "python"),
    ]
    assert docs[0].title == "brine (verified in run r1)"
    assert guess_kind(runs) == "verified"


def test_no_run_store_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no codeproof run store"):
        list(documents("verified", tmp_path, Limits()))


def test_a_missing_path_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        documents("code", tmp_path / "nope", Limits())
