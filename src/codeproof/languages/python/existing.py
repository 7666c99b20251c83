"""A Python module inside an existing project (``codeproof new --project DIR``).

The project's import root is ``src`` in a src layout, else its root; its main package is
the top-level package (with an ``__init__.py``) holding the most sources; its tests go
to the folder holding most of its tests. In the sandbox a ``conftest.py`` puts the
import roots on ``sys.path`` (unless the project has its own at its root). A flat source
goes into the main package (``tidepool/crab_report.py``), or changes the one existing
source of its name; a test goes into the test folder, never over an existing test; the
imports of placed modules are rewritten through the AST (``from crab_report import`` ->
``from tidepool.crab_report import``).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import PurePosixPath

from codeproof.languages.existing import ExistingProject, Placement, ProjectFiles
from codeproof.languages.python.tests import is_test_path

SANDBOX_CONFTEST = "conftest.py"


def layout(sources: Mapping[str, str], tests: Mapping[str, str]) -> Placement:
    """Import root (``src`` layout or not), main package and test folder."""
    paths = [PurePosixPath(p) for p in sources]
    import_root = "src" if any(p.parts[0] == "src" for p in paths if p.parts) else ""
    under = [p for p in paths if not import_root or p.parts[0] == import_root]
    offset = 1 if import_root else 0
    packages: dict[str, int] = {}
    for p in under:
        if len(p.parts) > offset + 1 and p.parts[offset] != SANDBOX_CONFTEST:
            top = p.parts[offset]
            init = PurePosixPath(*p.parts[: offset + 1]) / "__init__.py"
            if str(init) in sources:
                packages[top] = packages.get(top, 0) + 1
    package = max(packages, key=lambda k: packages[k]) if packages else ""
    test_dirs = [PurePosixPath(t).parts[0] for t in tests if len(PurePosixPath(t).parts) > 1]
    tests_dir = max(set(test_dirs), key=test_dirs.count) if test_dirs else ""
    return Placement(import_root, package, tests_dir)


def support(project: ProjectFiles) -> dict[str, str]:
    """A ``conftest.py`` putting the import roots on ``sys.path`` (none when the project
    has its own)."""
    if SANDBOX_CONFTEST in project.sources or SANDBOX_CONFTEST in project.tests:
        return {}
    roots = ["", project.import_root] if project.import_root else [""]
    lines = ["import pathlib", "import sys", "", "_here = pathlib.Path(__file__).parent"]
    lines += [f"sys.path.insert(0, str(_here / {r!r}))" for r in roots]
    return {SANDBOX_CONFTEST: "\n".join(lines) + "\n"}


def place(project: ProjectFiles, path: str) -> str:
    """Where a module's flat file goes in the project."""
    name = PurePosixPath(path).name
    if is_test_path(name):
        tests_dir = project.tests_dir
        target = PurePosixPath(tests_dir) / name if tests_dir else PurePosixPath(name)
        if str(target) in project.tests:  # never replace an existing test file
            target = target.with_name(f"{target.stem}_codeproof{target.suffix}")
        return str(target)
    existing = _existing_module(project, PurePosixPath(name).stem)
    if existing is not None:
        return existing
    root = PurePosixPath(project.import_root)
    return str(root / project.package / name if project.package else root / name)


def _existing_module(project: ProjectFiles, stem: str) -> str | None:
    """The one existing non-test source file named ``stem``, if any."""
    found = [p for p in project.sources if PurePosixPath(p).stem == stem]
    return found[0] if len(found) == 1 else None


def import_name(project: ProjectFiles, path: str) -> str:
    """The import name of a placed source file (``tidepool.crab_report``)."""
    parts = PurePosixPath(path).with_suffix("").parts
    if project.import_root and parts[:1] == (project.import_root,):
        parts = parts[1:]
    return ".".join(parts)


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


EXISTING = ExistingProject(
    layout=layout,
    support=support,
    place=place,
    import_name=import_name,
    rewrite_imports=rewrite_imports,
    support_names=frozenset({SANDBOX_CONFTEST}),
)
