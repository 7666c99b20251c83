"""The end of a ``--project`` run: verify the placed modules, then write them in place.

Only the files the run created or changed are written, and only when the final run in
the sandbox (the project's existing tests and every new test, in the project's layout)
shows no test that passed before failing. In a git work tree the changes go on a new
branch ``codeproof/<run id>`` as one commit (hooks are not run: they could run the new
code outside the sandbox); elsewhere every replaced file is first copied to
``.codeproof-backup/<run id>/``. A change that cannot be made safely (a file to change
has uncommitted edits) is not made: the report says why, and the generated files stay
in the run's output directory.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from codeproof.core.reports import FileChange, ModuleOutcome, ProjectResult
from codeproof.toolchains.api import ToolchainAPI
from codeproof.workflow.project import Project, judge, written

logger = logging.getLogger(__name__)

BACKUP_DIR = ".codeproof-backup"
GIT_TIMEOUT_S = 60


class GitFailed(Exception):
    """A git command failed (converted to a reason in the report)."""


def plan_changes(project: Project, outcomes: Sequence[ModuleOutcome]) -> list[FileChange]:
    """The files the modules whose tests pass add to or change in the project."""
    passed = [o for o in outcomes if written(o)]
    stems = {PurePosixPath(p).stem for o in passed for p in o.files}
    changes: dict[str, FileChange] = {}
    for outcome in passed:
        placed = project.placed({**outcome.files, **outcome.tests}, stems)
        for path, content in placed.items():
            target = project.root / path
            old = target.read_text(encoding="utf-8") if target.is_file() else None
            if old == content:
                continue
            action = "modify" if old is not None else "add"
            changes[path] = FileChange(
                path=path, action=action, module=outcome.module.name, content=content
            )
    return sorted(changes.values(), key=lambda c: c.path)


def verify(
    project: Project, toolchain: ToolchainAPI, outcomes: Sequence[ModuleOutcome]
) -> tuple[ProjectResult, bool]:
    """The final run in the project layout; ``(result, no regression)``."""
    baseline = project.baseline(toolchain)
    changes = plan_changes(project, outcomes)
    placed = {c.path: c.content for c in changes}
    layout_tests = {p for p in placed if p in _test_paths(project, outcomes)}
    tests = {**project.tests, **{p: placed[p] for p in layout_tests}}
    sources = {**project.sandbox_sources(), **{p: c for p, c in placed.items() if p not in tests}}
    result = ProjectResult(root=str(project.root), changes=changes)
    result.existing_tests_passed_before = len(baseline)
    if not tests:
        return result, True
    report = toolchain.run_tests(sources, tests)
    passed = {t.name for t in report.tests if t.outcome == "passed"}
    result.existing_tests_still_passing = len(baseline & passed)
    new_stems = {PurePosixPath(p).stem for p in layout_tests}
    new = [t for t in report.tests if any(s in t.name for s in new_stems)]
    result.new_tests_total = len(new)
    result.new_tests_passed = sum(1 for t in new if t.outcome == "passed")
    ok = judge(report, baseline, layout_tests, "all modules") is None
    return result, ok


def _test_paths(project: Project, outcomes: Sequence[ModuleOutcome]) -> set[str]:
    return {project.place(p) for o in outcomes for p in o.tests}


def apply_project(
    project: Project, toolchain: ToolchainAPI, outcomes: Sequence[ModuleOutcome], run_id: str
) -> ProjectResult:
    """Verify, then write the changes in place (git branch + commit, or backups)."""
    result, ok = verify(project, toolchain, outcomes)
    if not result.changes:
        return result.model_copy(update={"reason": "no module passed: nothing to write"})
    if not ok:
        reason = "not written: in the project layout a test that passed before fails"
        return result.model_copy(update={"reason": reason})
    try:
        if project.git:
            return _apply_git(project, result, run_id)
        return _apply_backup(project, result, run_id)
    except (OSError, GitFailed) as exc:
        logger.warning("could not write the changes to %s: %s", project.root, exc)
        return result.model_copy(update={"reason": f"not written: {exc}"})


def _write(root: Path, changes: Sequence[FileChange]) -> None:
    for change in changes:
        target = root / change.path
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(change.content)
        if target.exists():
            shutil.copymode(target, tmp)
        os.replace(tmp, target)


def _apply_backup(project: Project, result: ProjectResult, run_id: str) -> ProjectResult:
    backup = project.root / BACKUP_DIR / run_id
    for change in result.changes:
        if change.action == "modify":
            copy = backup / change.path
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(project.root / change.path, copy)
    _write(project.root, result.changes)
    where = str(backup) if backup.exists() else ""
    return result.model_copy(update={"applied": True, "backup_dir": where})


def _git(root: Path, *args: str) -> str:
    identity = ["-c", "user.name=codeproof", "-c", "user.email=codeproof@localhost"]
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *identity, *args],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GitFailed(f"git {args[0]} did not run: {exc}") from exc
    if done.returncode != 0:
        raise GitFailed(f"git {args[0]} failed: {done.stderr.strip()[-300:]}")
    return done.stdout.rstrip("\n")


def _apply_git(project: Project, result: ProjectResult, run_id: str) -> ProjectResult:
    root, branch = project.root, f"codeproof/{run_id}"
    if _git(root, "branch", "--list", branch):
        head = _git(root, "rev-parse", "--abbrev-ref", "HEAD")
        if head == branch:  # written before a crash or resume: done already
            commit = _git(root, "rev-parse", "HEAD")
            return result.model_copy(update={"applied": True, "branch": branch, "commit": commit})
        raise GitFailed(f"branch {branch} exists already")
    paths = [c.path for c in result.changes]
    dirty = [
        e[3:] for e in _git(root, "status", "--porcelain", "-z", "--", *paths).split("\0") if e
    ]
    if dirty:
        raise GitFailed(f"uncommitted changes in files the run would write: {', '.join(dirty)}")
    _git(root, "switch", "-c", branch)
    try:
        _write(root, result.changes)
        _git(root, "add", "--", *paths)
        modules = sorted({c.module for c in result.changes})
        message = f"codeproof run {run_id}: {', '.join(modules)}"
        _git(root, "commit", "--no-verify", "-m", message, "--", *paths)
    except (OSError, GitFailed):
        _undo(root, result.changes)
        raise
    commit = _git(root, "rev-parse", "HEAD")
    return result.model_copy(update={"applied": True, "branch": branch, "commit": commit})


def _undo(root: Path, changes: Sequence[FileChange]) -> None:
    """Put the work tree back as it was and leave the new branch."""
    for change in changes:
        if change.action == "add":
            (root / change.path).unlink(missing_ok=True)
    modified = [c.path for c in changes if c.action == "modify"]
    try:
        if modified:
            _git(root, "checkout", "HEAD", "--", *modified)
        _git(root, "switch", "-")
    except GitFailed as exc:
        logger.warning("could not undo a failed commit in %s: %s", root, exc)
