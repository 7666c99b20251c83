"""Working inside an existing project of a language (``codeproof new --project DIR``).

The agents write flat files as always (``crab_report.py``, ``test_crab_report.py``). A
language that can fit them into an existing project's layout says how through an
:class:`ExistingProject` (the ``Language.existing`` capability,
``languages/<name>/existing.py``): where the project's import root, package and test
folder are, which files the sandbox needs beside the project's own to import them, where
a flat file goes, and how the imports of a moved module are rewritten. Without one,
modules keep their flat paths at the project's root and the sandbox gets the project's
files alone. ``workflow/project.py`` reads the project and runs the gate; it asks these
functions and never a language's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Placement:
    """Where new modules go in an existing project.

    Attributes:
        import_root: The folder imports resolve from (``""`` or ``"src"``).
        package: The package new modules go into (``""``: the import root).
        tests_dir: Where new tests go (``""``: beside the sources).
    """

    import_root: str = ""
    package: str = ""
    tests_dir: str = ""


class ProjectFiles(Protocol):
    """An existing project as a language reads it (``workflow.project.Project``)."""

    @property
    def sources(self) -> Mapping[str, str]:
        """Its source files of the language (path -> content)."""
        ...

    @property
    def tests(self) -> Mapping[str, str]:
        """Its test files of the language."""
        ...

    @property
    def import_root(self) -> str: ...

    @property
    def package(self) -> str: ...

    @property
    def tests_dir(self) -> str: ...


@dataclass(frozen=True)
class ExistingProject:
    """How modules of the language are fitted into an existing project.

    Attributes:
        layout: ``(sources, tests) -> placement``: the project's import root, main
            package and test folder.
        support: ``project -> files`` the sandbox needs beside the project's own to
            import them (a ``conftest.py`` putting the import roots on ``sys.path``);
            never written to the project.
        place: ``(project, flat path) -> the file's path in the project``.
        import_name: ``(project, placed source path) -> the name other files import it
            by`` (``tidepool.crab_report``).
        rewrite_imports: ``(source, {flat import name: placed import name}) -> source``
            whose imports of placed modules name them where they are placed.
        support_names: Names of the support files (never counted as the project's tests).
    """

    layout: Callable[[Mapping[str, str], Mapping[str, str]], Placement]
    support: Callable[[ProjectFiles], dict[str, str]]
    place: Callable[[ProjectFiles, str], str]
    import_name: Callable[[ProjectFiles, str], str]
    rewrite_imports: Callable[[str, Mapping[str, str]], str]
    support_names: frozenset[str] = frozenset()
