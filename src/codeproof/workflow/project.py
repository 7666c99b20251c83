"""Working inside an existing project (``codeproof new --project DIR``).

The agents write flat files as always (``crab_report.py``, ``test_crab_report.py``);
their tests run in the sandbox beside the project's own source files, with the
project's import roots on ``sys.path`` (a sandbox-only ``conftest.py``). Each module is
then *placed* in the project's layout: a Python source into the project's package
(``tidepool/crab_report.py``), a test into its test folder, the imports of placed modules
rewritten through the AST (``from crab_report import`` -> ``from tidepool.crab_report
import``); a module named after an existing file changes that file. The placed files
run together with the project's existing tests (the *gate*): a test that passed before
the run must still pass. Nothing is written to the project until the run's end
(:mod:`.project_apply`).
"""

from __future__ import annotations

import ast
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from codeproof.core.errors import InputError
from codeproof.core.types import Module, ModuleOutcome, TestCase, TestReport
from codeproof.languages.registry import layout_for
from codeproof.toolchains.api import ToolchainAPI

logger = logging.getLogger(__name__)

WRITTEN = frozenset({"passed", "weak"})
"""Statuses of modules placed in the project: their tests pass (``weak``: on a weak
proof, which the report's Proof section shows)."""
MAX_FILES = 3000
MAX_BYTES = 30_000_000
SKIP_DIRS = frozenset(
    {".git", ".hg", ".venv", "venv", "env", "__pycache__", "node_modules", "build", "dist",
     ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", ".codeproof", ".codeproof-backup",
     "target", "out"}
)  # fmt: skip
SANDBOX_CONFTEST = "conftest.py"


@dataclass
class Project:
    """An existing project: its files, layout and existing tests (read once).

    Attributes:
        root: The project directory.
        language: Its main language.
        sources: Its source files of that language (path -> content).
        tests: Its test files of that language.
        import_root: The folder on ``sys.path`` (``""`` or ``"src"``).
        package: The package new modules go into (``""``: the import root).
        tests_dir: Where new tests go (``""``: beside the sources).
        git: Whether the project is a git work tree.
    """

    root: Path
    language: str
    sources: dict[str, str]
    tests: dict[str, str]
    import_root: str = ""
    package: str = ""
    tests_dir: str = ""
    git: bool = False
    _baseline: set[str] | None = field(default=None, repr=False)

    @property
    def existing(self) -> dict[str, str]:
        return {**self.sources, **self.tests}

    # -- the sandbox -------------------------------------------------------------------

    def sandbox_sources(self) -> dict[str, str]:
        """The project's sources as the sandbox gets them, with its import roots on
        ``sys.path`` (Python: a ``conftest.py`` unless the project has one at its root)."""
        files = dict(self.sources)
        if self.language == "python" and SANDBOX_CONFTEST not in self.existing:
            roots = ["", self.import_root] if self.import_root else [""]
            lines = ["import pathlib", "import sys", "", "_here = pathlib.Path(__file__).parent"]
            lines += [f"sys.path.insert(0, str(_here / {r!r}))" for r in roots]
            files[SANDBOX_CONFTEST] = "\n".join(lines) + "\n"
        return files

    def baseline(self, toolchain: ToolchainAPI) -> set[str]:
        """Names of the existing tests that pass before the run (run once, cached)."""
        if self._baseline is None:
            if not self.tests:
                self._baseline = set()
            else:
                report = toolchain.run_tests(self.sandbox_sources(), self.tests)
                self._baseline = {t.name for t in report.tests if t.outcome == "passed"}
        return self._baseline

    # -- placement ---------------------------------------------------------------------

    def place(self, path: str) -> str:
        """Where a module's flat file goes in the project."""
        name = PurePosixPath(path).name
        if self.language != "python":
            return path
        layout = layout_for("python")
        existing = self._existing_module(PurePosixPath(name).stem)
        if layout.is_test_path(name):
            target = PurePosixPath(self.tests_dir) / name if self.tests_dir else PurePosixPath(name)
            if str(target) in self.tests:  # never replace an existing test file
                target = target.with_name(f"{target.stem}_codeproof{target.suffix}")
            return str(target)
        if existing is not None:
            return existing
        base = PurePosixPath(self.import_root) / self.package if self.package else None
        return str(base / name) if base else str(PurePosixPath(self.import_root) / name)

    def _existing_module(self, stem: str) -> str | None:
        """The one existing non-test source file named ``stem``, if any."""
        found = [p for p in self.sources if PurePosixPath(p).stem == stem]
        return found[0] if len(found) == 1 else None

    def dotted(self, path: str) -> str:
        """The import name of a placed source file (``tidepool.crab_report``)."""
        rel = PurePosixPath(path).with_suffix("")
        parts = rel.parts
        if self.import_root and parts[:1] == (self.import_root,):
            parts = parts[1:]
        return ".".join(parts)

    def placed(self, files: Mapping[str, str], stems: Iterable[str]) -> dict[str, str]:
        """``files`` at their project paths, imports of placed modules rewritten."""
        stems = set(stems)
        targets = {s: self.place(f"{s}.py") for s in stems}
        names = {s: self.dotted(t) for s, t in targets.items() if self.dotted(t) != s}
        out: dict[str, str] = {}
        for path, content in files.items():
            target = self.place(path)
            out[target] = rewrite_imports(content, names) if path.endswith(".py") else content
        return out

    # -- the gate ----------------------------------------------------------------------

    def gate(
        self,
        toolchain: ToolchainAPI,
        module: str,
        files: Mapping[str, str],
        tests: Mapping[str, str],
        earlier: Iterable[ModuleOutcome],
    ) -> TestReport | None:
        """The module placed in the project with the earlier modules, its tests and the
        existing tests run together: ``None`` when nothing that passed before fails and
        the module's own tests pass in the project layout, else the failures."""
        baseline = self.baseline(toolchain)
        stems = {PurePosixPath(p).stem for o in earlier for p in o.files}
        stems |= {PurePosixPath(p).stem for p in files}
        placed_sources: dict[str, str] = {}
        placed_tests: dict[str, str] = {}
        for outcome in earlier:
            if outcome.status in WRITTEN:
                placed_sources.update(self.placed(outcome.files, stems))
                placed_tests.update(self.placed(outcome.tests, stems))
        placed_sources.update(self.placed(files, stems))
        new_tests = self.placed(tests, stems)
        run_tests = {**self.tests, **placed_tests, **new_tests}
        report = toolchain.run_tests({**self.sandbox_sources(), **placed_sources}, run_tests)
        return judge(report, baseline, set(new_tests), module)


def planned_changes(project: Project, modules: Iterable[Module]) -> list[str]:
    """What each module would add or change, for the module selection."""
    out = []
    for module in modules:
        layout = layout_for(module.language)
        for path in (layout.source_path(module.name), layout.test_path(module.name)):
            target = project.place(path)
            verb = "changes" if target in project.existing else "adds"
            out.append(f"{module.name} {verb} {target}")
    return out


def judge(
    report: TestReport, baseline: set[str], new_files: set[str], module: str
) -> TestReport | None:
    """The gate's verdict: regressions of baseline tests and failures of the module's
    placed tests fail it; other failures (tests failing before the run) do not count."""
    stems = {PurePosixPath(p).stem for p in new_files}
    bad: list[TestCase] = []
    for case in report.tests:
        if case.outcome not in ("failed", "error"):
            continue
        mine = any(s in case.name for s in stems)
        if case.name in baseline:
            bad.append(case.model_copy(update={"message": f"regression: {case.message}"}))
        elif mine:
            bad.append(case.model_copy(update={"message": f"in the project: {case.message}"}))
    if not bad and not report.timed_out:
        return None
    return report.model_copy(
        update={
            "tests": bad,
            "failed": len(bad),
            "errors": 0,
            "passed": 0,
            "total": len(bad),
            "message": f"placed in the project, module {module!r} breaks {len(bad)} test(s) "
            "that passed before or its own tests in the project layout",
        }
    )


def rewrite_imports(source: str, names: Mapping[str, str]) -> str:
    """``from a import x`` -> ``from pkg.a import x`` and ``import a`` -> ``import pkg.a
    as a`` for every ``a`` in ``names`` (through the AST; a file that does not parse is
    left alone)."""
    if not names:
        return source
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    edits: list[tuple[int, int, int, str]] = []  # (line, start col, end col, text)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in names:
            module = node.module or ""
            line = source.splitlines()[node.lineno - 1]
            start = line.index(module, node.col_offset)
            edits.append((node.lineno, start, start + len(module), names[module]))
        elif (
            isinstance(node, ast.Import)
            and node.end_col_offset is not None
            and node.lineno == node.end_lineno
            and any(a.name in names for a in node.names)
        ):
            parts = [
                f"{names[a.name]} as {a.asname or a.name}" if a.name in names
                else (f"{a.name} as {a.asname}" if a.asname else a.name)
                for a in node.names
            ]  # fmt: skip
            text = "import " + ", ".join(parts)
            edits.append((node.lineno, node.col_offset, node.end_col_offset, text))
    lines = source.splitlines(keepends=True)
    for lineno, start, end, text in sorted(edits, reverse=True):
        line = lines[lineno - 1]
        lines[lineno - 1] = line[:start] + text + line[end:]
    return "".join(lines)


def load_project(root: Path, language: str | None = None) -> Project:
    """Read a project directory: its language, sources, tests and layout.

    Raises:
        InputError: Not a directory, no source file of a served language, or too large.
    """
    root = root.expanduser().resolve()
    if not root.is_dir():
        raise InputError(f"--project {root} is not a directory", hint="give the project folder")
    files = _read_tree(root)
    language = language or _main_language(files)
    if language is None:
        raise InputError(
            f"no Python, JavaScript or Java source in {root}",
            hint="give the project's folder, or omit --project to start a new one",
        )
    layout = layout_for(language)
    own = {p: c for p, c in files.items() if layout.owns(p)}
    support = PurePosixPath(SANDBOX_CONFTEST).name
    tests = {
        p: c for p, c in own.items() if layout.is_test_path(p) and PurePosixPath(p).name != support
    }
    sources = {p: c for p, c in own.items() if p not in tests}
    project = Project(root, language, sources, tests, git=(root / ".git").exists())
    if language == "python":
        _python_layout(project)
    return project


def _read_tree(root: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    total = 0
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if set(rel.parts[:-1]) & SKIP_DIRS or any(p.startswith(".") for p in rel.parts):
            continue
        if not path.is_file() or path.suffix not in (".py", ".js", ".mjs", ".cjs", ".java"):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        total += len(text)
        out[rel.as_posix()] = text
        if len(out) > MAX_FILES or total > MAX_BYTES:
            raise InputError(
                f"{root} has more than {MAX_FILES} source files or {MAX_BYTES} bytes",
                hint="point --project at the package folder you want to change",
            )
    return out


def _main_language(files: Mapping[str, str]) -> str | None:
    counts: dict[str, int] = {}
    for language in ("python", "javascript", "java"):
        counts[language] = sum(1 for p in files if layout_for(language).owns(p))
    best = max(counts, key=lambda k: counts[k])
    return best if counts[best] else None


def _python_layout(project: Project) -> None:
    """Import root (``src`` layout or not), main package and test folder."""
    paths = [PurePosixPath(p) for p in project.sources]
    project.import_root = "src" if any(p.parts[0] == "src" for p in paths if p.parts) else ""
    under = [p for p in paths if not project.import_root or p.parts[0] == project.import_root]
    offset = 1 if project.import_root else 0
    packages: dict[str, int] = {}
    for p in under:
        if len(p.parts) > offset + 1 and p.parts[offset] != SANDBOX_CONFTEST:
            top = p.parts[offset]
            init = PurePosixPath(*p.parts[: offset + 1]) / "__init__.py"
            if str(init) in project.sources:
                packages[top] = packages.get(top, 0) + 1
    project.package = max(packages, key=lambda k: packages[k]) if packages else ""
    test_dirs = [
        PurePosixPath(t).parts[0] for t in project.tests if len(PurePosixPath(t).parts) > 1
    ]
    project.tests_dir = max(set(test_dirs), key=test_dirs.count) if test_dirs else ""
