"""Working inside an existing project (``codeproof new --project DIR``).

The agents write flat files as always (``crab_report.py``, ``test_crab_report.py``);
their tests run in the sandbox beside the project's own source files, with what the
sandbox needs to import them (Python: a sandbox-only ``conftest.py`` putting the
project's import roots on ``sys.path``). Each module is then *placed* in the project's
layout as its language says (``Language.existing``, :mod:`codeproof.languages.existing`;
Python: a source into the project's package, ``tidepool/crab_report.py``, a test into its
test folder, the imports of placed modules rewritten, ``from crab_report import`` ->
``from tidepool.crab_report import``; a module named after an existing file changes that
file); a language without that capability keeps its flat paths. The placed files run
together with the project's existing tests (the *gate*): a test that passed before the
run must still pass. Nothing is written to the project until the run's end
(:mod:`.project_apply`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from codeproof.core.errors import InputError
from codeproof.core.reports import ModuleOutcome
from codeproof.core.types import Module, TestCase, TestReport
from codeproof.languages import registry
from codeproof.languages.base import Language
from codeproof.languages.existing import ExistingProject
from codeproof.languages.registry import layout_for
from codeproof.toolchains.api import ToolchainAPI

logger = logging.getLogger(__name__)

WRITTEN = frozenset({"passed", "weak"})
"""Statuses of modules placed in the project: their tests pass (``weak``: on a weak
proof, which the report's Proof section shows)."""


def written(outcome: ModuleOutcome) -> bool:
    """Whether ``outcome`` goes into the user's project: its status is in
    :data:`WRITTEN` and some test of its own passed (a module whose every test was set
    aside is ``weak`` with nothing shown, and stays out)."""
    return outcome.status in WRITTEN and outcome.report is not None and outcome.report.passed > 0


MAX_FILES = 3000
MAX_BYTES = 30_000_000
SKIP_DIRS = frozenset(
    {".git", ".hg", ".venv", "venv", "env", "__pycache__", "node_modules", "build", "dist",
     ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", ".codeproof", ".codeproof-backup",
     "target", "out"}
)  # fmt: skip


@dataclass
class Project:
    """An existing project: its files, layout and existing tests (read once).

    Attributes:
        root: The project directory.
        language: Its main language.
        sources: Its source files of that language (path -> content).
        tests: Its test files of that language.
        import_root: The folder imports resolve from (``""`` or ``"src"``).
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

    @property
    def fitting(self) -> ExistingProject | None:
        """How its language fits modules into the project (``None``: flat files)."""
        return registry.language_for(self.language).existing

    # -- the sandbox -------------------------------------------------------------------

    def sandbox_sources(self) -> dict[str, str]:
        """The project's sources as the sandbox gets them, with what it needs to import
        them (Python: a ``conftest.py`` putting the import roots on ``sys.path``, unless
        the project has one at its root)."""
        fitting = self.fitting
        return {**self.sources, **(fitting.support(self) if fitting is not None else {})}

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
        fitting = self.fitting
        return fitting.place(self, path) if fitting is not None else path

    def dotted(self, path: str) -> str:
        """The import name of a placed source file (``tidepool.crab_report``)."""
        fitting = self.fitting
        if fitting is not None:
            return fitting.import_name(self, path)
        return ".".join(PurePosixPath(path).with_suffix("").parts)

    def placed(self, files: Mapping[str, str], stems: Iterable[str]) -> dict[str, str]:
        """``files`` at their project paths, imports of placed modules rewritten."""
        fitting = self.fitting
        if fitting is None:
            return {self.place(path): content for path, content in files.items()}
        layout = layout_for(self.language)
        targets = {s: self.place(layout.source_path(s)) for s in set(stems)}
        names = {s: self.dotted(t) for s, t in targets.items() if self.dotted(t) != s}
        return {
            self.place(path): fitting.rewrite_imports(content, names)
            if layout.owns(path)
            else content
            for path, content in files.items()
        }

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
            if written(outcome):
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


def load_project(root: Path, language: str | None = None) -> Project:
    """Read a project directory: its language, sources, tests and layout.

    Raises:
        InputError: Not a directory, no source file of a served language, or too large.
    """
    root = root.expanduser().resolve()
    if not root.is_dir():
        raise InputError(f"--project {root} is not a directory", hint="give the project folder")
    files = _read_tree(root)
    found = registry.language_for(language) if language else _main_language(files)
    if found is None:
        raise InputError(
            f"no {_spelled(_project_languages())} source in {root}",
            hint="give the project's folder, or omit --project to start a new one",
        )
    layout, fitting = found.layout, found.existing
    own = {p: c for p, c in files.items() if layout.owns(p)}
    support = fitting.support_names if fitting is not None else frozenset()
    tests = {
        p: c
        for p, c in own.items()
        if layout.is_test_path(p) and PurePosixPath(p).name not in support
    }
    sources = {p: c for p, c in own.items() if p not in tests}
    project = Project(root, found.name, sources, tests, git=(root / ".git").exists())
    if fitting is not None:
        placement = fitting.layout(sources, tests)
        project.import_root = placement.import_root
        project.package = placement.package
        project.tests_dir = placement.tests_dir
    return project


def _read_tree(root: Path) -> dict[str, str]:
    """The project's files of every known language (by their layouts' extensions)."""
    suffixes = registry.extensions()
    out: dict[str, str] = {}
    total = 0
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if set(rel.parts[:-1]) & SKIP_DIRS or any(p.startswith(".") for p in rel.parts):
            continue
        if not path.is_file() or path.suffix not in suffixes:
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


def _project_languages() -> list[Language]:
    """The languages whose files a project is searched for (each with its own endings:
    a configured language without one would own every file)."""
    return [lang for lang in registry.languages() if all(lang.layout.extensions)]


def _main_language(files: Mapping[str, str]) -> Language | None:
    """The language owning the most files (the first known on a tie), if any."""
    counts = [(sum(1 for p in files if lang.layout.owns(p)), lang) for lang in _project_languages()]
    best = max(counts, key=lambda count: count[0], default=None)
    return best[1] if best is not None and best[0] else None


def _spelled(languages: list[Language]) -> str:
    """``Python, JavaScript or Java``: each label without its details in brackets."""
    labels = [lang.label.partition(" (")[0] for lang in languages]
    return " or ".join(filter(None, (", ".join(labels[:-1]), *labels[-1:])))
