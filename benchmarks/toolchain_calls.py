"""Cost of the MCP toolchain layer: server start and per-call wall time, per language.

Prints (never asserts), for each toolchain server started through the router:

* start: spawning ``codeproof mcp toolchain <name>`` and the MCP ``initialize``;
* run_tests / check: median wall time seen by the client over ``--repeat`` calls of a
  3-test module (each call has a sandbox session of its own; ``--no-warm``: started
  when the call comes, not ahead of it);
* the direct sandbox cost of the same test run (one session, no MCP, no server) and the
  ratio MCP/direct, i.e. what the protocol and the per-call session add.

    .venv/bin/python benchmarks/toolchain_calls.py --backend docker --repeat 3
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time

from codeproof.core.config import load_settings
from codeproof.languages import registry
from codeproof.sandbox.registry import limits_from_settings, open_session
from codeproof.toolchains.client import ToolchainClient
from codeproof.toolchains.registry import get_toolchain
from codeproof.toolchains.server import ToolchainService

JS_HEAD = "const test = require('node:test');\nconst assert = require('node:assert/strict');\n"
JAVA_HEAD = (
    "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n"
)
SOURCES: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "python": (
        {"calc.py": "def add(a, b):\n    return a + b\n"},
        {
            "test_calc.py": "from calc import add\n\n\n"
            + "".join(f"def test_{i}():\n    assert add({i}, 1) == {i + 1}\n\n\n" for i in range(3))
        },
    ),
    "node": (
        {"calc.js": "module.exports = { add: (a, b) => a + b };\n"},
        {
            "calc.test.js": JS_HEAD
            + "const { add } = require('./calc');\n"
            + "".join(
                f"test('t{i}', () => assert.strictEqual(add({i}, 1), {i + 1}));\n" for i in range(3)
            )
        },
    ),
    "java": (
        {"Calc.java": "public class Calc { static int add(int a, int b) { return a + b; } }\n"},
        {
            "CalcTest.java": JAVA_HEAD
            + "class CalcTest {\n"
            + "".join(
                f"  @Test void t{i}() {{ assertEquals({i + 1}, Calc.add({i}, 1)); }}\n"
                for i in range(3)
            )
            + "}\n"
        },
    ),
}


def _median(samples: list[float]) -> float:
    return statistics.median(samples)


def measure(language: str, toolchain: str, backend: str, repeat: int, warm: bool) -> None:
    settings = load_settings(sandbox={"backend": backend, "warm": warm})
    files, tests = SOURCES[toolchain]
    started = time.perf_counter()
    client = ToolchainClient(settings, language)
    client.start()
    start_s = time.perf_counter() - started
    test_times: list[float] = []
    checks: list[float] = []
    try:
        for _ in range(repeat):
            t0 = time.perf_counter()
            report = client.run_tests(files, tests)
            test_times.append(time.perf_counter() - t0)
            assert report.passed == 3, report.message
            t0 = time.perf_counter()
            client.check(files)
            checks.append(time.perf_counter() - t0)
    finally:
        client.close()
    service = ToolchainService(
        get_toolchain(toolchain),
        functools.partial(open_session, settings),
        limits_from_settings(settings),
    )
    direct: list[float] = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        service.run_tests(files, tests)
        direct.append(time.perf_counter() - t0)
    print(
        f"{language:<10} start {start_s:5.2f} s | run_tests {_median(test_times):5.2f} s | "
        f"check {_median(checks):5.2f} s | direct run_tests {_median(direct):5.2f} s | "
        f"MCP/direct {_median(test_times) / _median(direct):4.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="docker")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--warm",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the server starts each call's session ahead of the call (sandbox.warm)",
    )
    parser.add_argument("--language", help="one language only (default: all)")
    args = parser.parse_args()
    for language in registry.languages():
        if args.language in (None, language.name):
            measure(language.name, language.toolchain_name, args.backend, args.repeat, args.warm)


if __name__ == "__main__":
    main()
