"""A language served by a configured toolchain server, without a package of its own.

``[toolchains.go]`` in ``codeproof.toml`` names a server and, optionally, where modules
and tests go and the fence tag. The agents can then plan, write and test modules of that
language; what a package would add (clean-up, probing, example tests, mutation, security
scans, benchmarks) is simply absent: choice and repair rest on the tests alone.
"""

from __future__ import annotations

import re

from codeproof.core.config import ToolchainServer
from codeproof.languages.base import Editing, Language, Project
from codeproof.languages.layout import Layout, basename

_ANY_LINE = re.compile(r"^[ \t]*\S.*$", re.MULTILINE)
"""Without a package nothing tells a test case apart: every non-blank line counts."""


def _extension(path_pattern: str) -> str:
    name = basename(path_pattern.replace("{module}", "m"))
    return "." + name.rsplit(".", 1)[1] if "." in name else ""


def configured_language(name: str, server: ToolchainServer) -> Language:
    """The language ``name`` as its server's configuration describes it."""
    fence = server.fence or name
    source, test = server.source_path, server.test_path
    test_name = basename(test)
    test_prefix, _, test_suffix = test_name.partition("{module}")
    extensions = tuple(dict.fromkeys(e for e in (_extension(source), _extension(test)) if e))

    def is_test(path: str) -> bool:
        file = basename(path)
        return file.startswith(test_prefix) and file.endswith(test_suffix) and file != ""

    layout = Layout(
        language=name,
        fence_tag=fence,
        fence_tags=frozenset({fence, name}),
        extensions=extensions or ("",),
        source_path=lambda m: source.replace("{module}", m),
        test_path=lambda m: test.replace("{module}", m),
        is_test_path=is_test,
        test_marker=_ANY_LINE,
    )
    return Language(
        name=name,
        label=name,
        aliases=frozenset(),
        layout=layout,
        toolchain_name=name,
        make_toolchain=None,
        image=None,
        editing=Editing(
            fix_source=lambda source_text, path: source_text,
            fix_tests=lambda source_text, path, module, dependencies: source_text,
            locate_test=lambda source_text, test_name: None,
            remove_test=lambda source_text, test_name: None,
            signatures=lambda source_text, path: [],
            examples=lambda source_text: [],
        ),
        project=Project(
            dockerfile="",
            install=f"Requires the {name} toolchain that `{' '.join(server.command)}` serves.",
            run_tests="",
        ),
    )
