"""Java: JDK 17 with JUnit 5, compiled probes, the Java sandbox image."""

from __future__ import annotations

import re

from codeproof.languages.base import (
    MARK,
    WORKED_CLASS,
    Choosing,
    Editing,
    ExampleProbe,
    Language,
    Prober,
    Proving,
)
from codeproof.languages.benchmarks import Benchmarks
from codeproof.languages.capabilities import CapabilityScanner
from codeproof.languages.clike import c_like_parts
from codeproof.languages.java import (
    capabilities,
    chunking,
    code_mutants,
    consensus,
    eval,
    mutants,
    notations,
    probe,
    project,
    proof_checks,
    signatures,
    tests,
    tidy,
    toolchain,
)
from codeproof.languages.java.standard_types import STANDARD_TYPES
from codeproof.languages.layout import Layout, basename
from codeproof.sandbox.recipe import Recipe

NAME = "java"


def _is_test(path: str) -> bool:
    return basename(path).endswith(("Test.java", "Tests.java"))


_JAVA_LANG = frozenset(
    {"string", "math", "object", "integer", "long", "double", "boolean", "character", "system"}
    | {"thread", "number", "record", "enum", "iterable", "comparable", "exception", "error"}
)

LAYOUT = Layout(
    language=NAME,
    fence_tag="java",
    fence_tags=frozenset({"java"}),
    extensions=(".java",),
    source_path=lambda m: f"{tidy.class_name(m)}.java",
    test_path=lambda m: f"{tidy.class_name(m)}Test.java",
    worked_test_path=lambda m: f"{tidy.class_name(m)}{WORKED_CLASS}.java",
    is_test_path=_is_test,
    example_test=tests.is_example_test,
    test_marker=re.compile(r"@Test\b[^;{]*?\bvoid\s+(\w+)\s*\(", re.DOTALL),
    reserved=_JAVA_LANG,
    code_start=re.compile(r"^(?:import\s|package\s|public\s|class\s|final\s|abstract\s|/\*|//|@)"),
    class_files=True,
    standard_types=STANDARD_TYPES,
)

IMAGE = Recipe(
    NAME,
    ("default-jdk-headless", "junit5"),
    official_base="eclipse-temurin:17-jdk",
    official_setup=(
        "apt-get update && apt-get install -y --no-install-recommends junit5 "
        "&& rm -rf /var/lib/apt/lists/*",
    ),
    virtual_headroom=4 * 1024**3,
)

LANGUAGE = Language(
    name=NAME,
    label="Java",
    aliases=frozenset({"jdk", "java17"}),
    layout=LAYOUT,
    toolchain_name=NAME,
    make_toolchain=toolchain.JavaToolchain,
    image=IMAGE,
    editing=Editing(
        fix_source=tidy.fix_source,
        fix_tests=tidy.fix_tests,
        locate_test=tests.locate_java_test,
        remove_test=tests.remove_java_test,
        assertion=tests.is_assertion,
        signatures=signatures.java_signatures,
        examples=signatures.java_examples,
        uncompiled_tests=tests.uncompiled_java_tests,
    ),
    choosing=Choosing(
        prober=Prober(
            probe.java_calls,
            lambda calls, stem: probe.java_program(calls, stem, MARK),
            f"{probe.PROBE_CLASS}.java",
            (probe.PROBE_CLASS,),
            probe.uncompiled_calls,
            probe.BROKEN,
        ),
        example_probe=ExampleProbe(probe.java_example_checks, probe.example_met),
        mutate_call=mutants.java_mutants,
        edit_asserts=consensus.edit_file,
        value=probe.java_value,
    ),
    proving=Proving(code_mutants.java_code_mutants, proof_checks.proof_tests),
    scanners=(CapabilityScanner(capabilities.RULES, LAYOUT),),
    project=project.PROJECT,
    chunking=chunking.CHUNKING,
    notations=notations.NOTATIONS,
    property_tests=(
        "a rule that holds for every input gets one test checking it on 50 inputs from "
        "`new java.util.Random(42)`."
    ),
    benchmarks=Benchmarks(
        humaneval_x="java",
        prompt_parts=c_like_parts(NAME),
        answer="the complete `class Solution` (with its imports)",
        assemble=eval.assemble,
        defines=eval.defines,
        scorer=eval.JavaScorer(),
        entry_point=re.compile(r"\bpublic\s+(?:static\s+)?[\w<>\[\],.? ]+?\s+(\w+)\s*\("),
        module_name=lambda task: "Solution",
        interface=lambda signature, entry: (
            f"class Solution {{ {signature} }}  (called as new Solution().{entry}(...))"
        ),
        module_interface=lambda signature: f"class Solution {{ {signature} }}",
        completion_fix=lambda code, task: tidy.tidy_java_source(code),
    ),
)
