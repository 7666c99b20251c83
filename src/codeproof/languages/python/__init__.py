"""Python: pytest, ``ast``-based editing, bandit, the Python sandbox image."""

from __future__ import annotations

import builtins
import re
import sys

from codeproof.languages.base import (
    WORKED_STEM,
    Choosing,
    Editing,
    Language,
    Proving,
    script_prober,
)
from codeproof.languages.benchmarks import Benchmarks
from codeproof.languages.capabilities import CapabilityScanner
from codeproof.languages.layout import Layout
from codeproof.languages.python import (
    capabilities,
    chunking,
    code_mutants,
    consensus,
    eval,
    examples,
    existing,
    fit,
    misfits,
    mutants,
    notations,
    probe,
    project,
    proof_checks,
    recombine,
    redefined,
    scan,
    signatures,
    tests,
    tidy,
    toolchain,
)
from codeproof.languages.values import literal_value
from codeproof.sandbox.recipe import Recipe

NAME = "python"


LAYOUT = Layout(
    language=NAME,
    fence_tag="python",
    fence_tags=frozenset({"python", "py", "python3", "py3"}),
    extensions=(".py",),
    related_extensions=(".pyi",),
    source_path=lambda m: f"{m}.py",
    test_path=lambda m: f"test_{m}.py",
    worked_test_path=lambda m: f"test_{m}{WORKED_STEM}.py",
    is_test_path=tests.is_test_path,
    example_test=tests.is_example_test,
    test_marker=re.compile(r"^\s*(?:async\s+)?def\s+(test\w*)\s*\(", re.MULTILINE),
    reserved=frozenset(sys.stdlib_module_names) | {"pytest", "conftest"},
    standard_types=frozenset(n for n, v in vars(builtins).items() if isinstance(v, type)),
    code_start=re.compile(
        r"^(?:from\s+\w|import\s+\w|def\s+\w|async\s+def|class\s+\w|@\w|#|\"\"\"|[A-Za-z_]\w*\s*=)"
    ),
)

IMAGE = Recipe(
    NAME,
    ("python3", "python3-pytest", "python3-hypothesis"),
    wheels=("ruff==0.17.6",),
    official_base="python:3.12-slim",
    official_setup=("pip install --no-cache-dir pytest hypothesis ruff==0.17.6",),
)

LANGUAGE = Language(
    name=NAME,
    label="Python",
    aliases=frozenset({"py", "python3", "py3", "cpython"}),
    layout=LAYOUT,
    toolchain_name=NAME,
    make_toolchain=toolchain.PythonToolchain,
    image=IMAGE,
    editing=Editing(
        fix_source=tidy.fix_source,
        fix_tests=tidy.fix_tests,
        locate_test=tests.locate_test,
        assertion=tests.is_assertion,
        remove_test=tests.remove_test,
        signatures=signatures.python_signatures,
        examples=signatures.python_examples,
        imports_of=signatures.python_imports_of,
        narrow_tests=tests.narrow_tests,
        fit_tests=fit.fit_tests,
        fit_to_dependencies=redefined.import_dependencies,
    ),
    choosing=Choosing(
        prober=script_prober(probe.python_calls, probe.SCRIPT, "_codeproof_probe.py", probe.BROKEN),
        example_tests=examples.example_tests,
        assertion_tests=examples.assertion_tests,
        mutate_call=mutants.python_mutants,
        edit_asserts=consensus.edit_file,
        value=literal_value,
        splice=recombine.splice,
        calls_by_test=recombine.calls_by_test,
    ),
    proving=Proving(code_mutants.python_code_mutants, proof_checks.proof_tests),
    scanners=(scan.scan_bandit, CapabilityScanner(capabilities.RULES, LAYOUT)),
    project=project.PROJECT,
    existing=existing.EXISTING,
    chunking=chunking.CHUNKING,
    notations=notations.NOTATIONS,
    property_tests=(
        "a rule that holds for every input gets one property test with hypothesis "
        "(`from hypothesis import given, strategies as st`, `@given(...)`)."
    ),
    benchmarks=Benchmarks(
        prompt_parts=eval.prompt_parts,
        answer="the complete function (with its `def` line and any imports it needs)",
        assemble=eval.assemble,
        defines=eval.defines,
        scorer=eval.PythonScorer(),
        entry_point=re.compile(r"^def\s+(\w+)\s*\(", re.MULTILINE),
    ),
    misfit_edit=misfits.edit,
)
