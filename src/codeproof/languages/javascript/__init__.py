"""JavaScript: Node.js (CommonJS) with the built-in test runner, the Node sandbox image."""

from __future__ import annotations

import re

from codeproof.languages.base import Choosing, Editing, Language, Proving, script_prober
from codeproof.languages.benchmarks import Benchmarks
from codeproof.languages.capabilities import CapabilityScanner
from codeproof.languages.clike import c_like_parts
from codeproof.languages.javascript import (
    capabilities,
    chunking,
    code_mutants,
    consensus,
    eval,
    examples,
    fit,
    mutants,
    notations,
    probe,
    project,
    proof_checks,
    recombine,
    requires,
    signatures,
    tests,
    tidy,
    toolchain,
)
from codeproof.languages.layout import Layout, basename
from codeproof.languages.values import js_value
from codeproof.sandbox.recipe import Recipe

NAME = "javascript"


def _is_test(path: str) -> bool:
    return basename(path).endswith((".test.js", ".spec.js", ".test.mjs", ".test.cjs"))


# fmt: off
PRODUCT_NAMES = frozenset({
    "node.js", "vue.js", "next.js", "nuxt.js", "express.js", "react.js", "angular.js",
    "ember.js", "backbone.js", "nest.js", "three.js", "d3.js", "chart.js", "alpine.js",
})
# fmt: on
"""Runtimes and libraries named like files: "a Node.js module" asks for no ``node.js``."""

_GLOBALS = """
AbortController AbortSignal AggregateError Array ArrayBuffer Atomics BigInt BigInt64Array
BigUint64Array Blob Boolean BroadcastChannel Buffer DOMException DataView Date Error
EvalError Event EventTarget File FinalizationRegistry Float32Array Float64Array FormData
Function Headers Int16Array Int32Array Int8Array Intl JSON Map Math MessageChannel
MessageEvent MessagePort Number Object Performance Promise Proxy RangeError ReadableStream
ReferenceError Reflect RegExp Request Response Set SharedArrayBuffer String Symbol
SyntaxError TextDecoder TextEncoder TransformStream TypeError URIError URL URLSearchParams
Uint16Array Uint32Array Uint8Array Uint8ClampedArray WeakMap WeakRef WeakSet WebAssembly
WritableStream
"""
STANDARD_TYPES = frozenset(_GLOBALS.split())
"""The capitalised globals of Node 20 (``Object.getOwnPropertyNames(globalThis)``) a
request may write (``a Map from id to order``) without asking for them."""

LAYOUT = Layout(
    language=NAME,
    fence_tag="javascript",
    fence_tags=frozenset({"javascript", "js", "node", "nodejs", "cjs", "mjs"}),
    extensions=(".js", ".cjs", ".mjs"),
    related_extensions=(".jsx",),
    source_path=lambda m: f"{m}.js",
    test_path=lambda m: f"{m}.test.js",
    worked_test_path=lambda m: f"{m}.worked-examples.test.js",
    is_test_path=_is_test,
    example_test=tests.is_example_test,
    test_marker=re.compile(r"\b(?:test|it)\s*\(\s*(['\"`])(.+?)\1"),
    reserved=frozenset({"test", "assert", "node"}),
    product_names=PRODUCT_NAMES,
    standard_types=STANDARD_TYPES,
    code_start=re.compile(
        r"^(?:const\s|let\s|var\s|function\b|async\s+function|class\s|module\.exports|exports\."
        r"|['\"]use strict['\"]|//|/\*|require\()"
    ),
)

IMAGE = Recipe("node", ("nodejs",), official_base="node:20-slim", virtual_headroom=4 * 1024**3)

LANGUAGE = Language(
    name=NAME,
    label="JavaScript (Node.js, CommonJS)",
    aliases=frozenset({"js", "node", "nodejs", "ecmascript", "cjs"}),
    layout=LAYOUT,
    toolchain_name="node",
    make_toolchain=toolchain.NodeToolchain,
    image=IMAGE,
    editing=Editing(
        fix_source=tidy.fix_source,
        fix_tests=tidy.fix_tests,
        locate_test=tests.locate_javascript_test,
        remove_test=tests.remove_javascript_test,
        assertion=tests.is_assertion,
        signatures=signatures.javascript_signatures,
        examples=signatures.javascript_examples,
        imports_of=signatures.javascript_imports_of,
        fit_to_dependencies=requires.fit_requires,
        fit_tests=fit.fit_tests,
    ),
    choosing=Choosing(
        prober=script_prober(
            probe.javascript_calls, probe.SCRIPT, "_codeproof_probe.js", probe.BROKEN
        ),
        example_tests=examples.example_tests,
        mutate_call=mutants.javascript_mutants,
        edit_asserts=consensus.edit_file,
        value=js_value,
        splice=recombine.splice,
        calls_by_test=recombine.calls_by_test,
    ),
    proving=Proving(code_mutants.javascript_code_mutants, proof_checks.proof_tests),
    scanners=(CapabilityScanner(capabilities.RULES, LAYOUT),),
    project=project.PROJECT,
    chunking=chunking.CHUNKING,
    notations=notations.NOTATIONS,
    property_tests=(
        "a rule that holds for every input gets one test checking it on 50 inputs from "
        "a seeded generator written in the test (never Math.random())."
    ),
    benchmarks=Benchmarks(
        humaneval_x="js",
        prompt_parts=c_like_parts(NAME),
        answer="the complete function (with its declaration line)",
        assemble=eval.assemble,
        defines=eval.defines,
        scorer=eval.JavaScriptScorer(),
        entry_point=re.compile(r"(?:\bconst|\blet|\bvar|\bfunction)\s+(\w+)\s*(?:=|\()"),
        completion_fix=eval.export,
        constraints=lambda entry: [f"Export it with module.exports = {{ {entry} }}."],
    ),
)
