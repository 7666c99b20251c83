"""Per-language sources of the toolchain conformance suite, and a sync MCP test client."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import anyio
from anyio.abc import TaskStatus
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, ListToolsResult, TextContent

LOOP_TIMEOUT_S = 5.0
HUGE_CHARS = 3_000_000


@dataclass(frozen=True)
class Cases:
    """Sources of one language.

    The tests check ``add``, ``sub`` and ``mul``; the wrong module gets ``add`` and
    ``mul`` wrong (2 failures, 1 pass, ``add(2, 3)`` returns 6 instead of 5).
    """

    toolchain: str
    language: str
    module: dict[str, str]
    wrong: dict[str, str]
    tests: dict[str, str]
    wrong_message: str  # surfaced in the failure message of the add test
    syntax_error: dict[str, str]  # module with a syntax error on line 2 of `syntax_file`
    syntax_file: str
    loop_tests: dict[str, str]  # a loop the per-test limit cannot stop: the run times out
    hang_tests: dict[str, str]  # test "hangs" never returns, test "add" passes
    hang_message: str  # in the failure message of "hangs" when each test may take 2 s
    no_tests: dict[str, str]  # prints "passed" and exits 0, declares no test
    huge_program: dict[str, str]
    huge_args: list[str]
    unloadable_test: dict[str, str] | None = None
    """A test file that cannot load (it imports a name the module lacks), given beside
    ``tests``: one error, and the other files' tests still run. ``None``: the language
    compiles every test file together, so one that does not compile stops them all."""


PY_TESTS = """\
from calc import add, mul, sub


def test_add():
    assert add(2, 3) == 5


def test_sub():
    assert sub(5, 3) == 2


def test_mul():
    assert mul(2, 3) == 6
"""

JS_HEAD = "const test = require('node:test');\nconst assert = require('node:assert/strict');\n"
JS_TESTS = (
    JS_HEAD
    + """const { add, sub, mul } = require('./calc');

test('add', () => { assert.strictEqual(add(2, 3), 5); });
test('sub', () => { assert.strictEqual(sub(5, 3), 2); });
test('mul', () => { assert.strictEqual(mul(2, 3), 6); });
"""
)

JAVA_IMPORTS = (
    "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n"
)
JAVA_TESTS = (
    JAVA_IMPORTS
    + """
class CalcTest {
    @Test void add() { assertEquals(5, Calc.add(2, 3)); }
    @Test void sub() { assertEquals(2, Calc.sub(5, 3)); }
    @Test void mul() { assertEquals(6, Calc.mul(2, 3)); }
}
"""
)


def _java_calc(add: str, mul: str) -> str:
    return (
        "public class Calc {\n"
        f"    public static int add(int a, int b) {{ return {add}; }}\n"
        "    public static int sub(int a, int b) { return a - b; }\n"
        f"    public static int mul(int a, int b) {{ return {mul}; }}\n"
        "}\n"
    )


PYTHON = Cases(
    toolchain="python",
    language="python",
    module={
        "calc.py": "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n\n\n"
        "def mul(a, b):\n    return a * b\n"
    },
    wrong={
        "calc.py": "def add(a, b):\n    return a + b + 1\n\n\ndef sub(a, b):\n    return a - b\n"
        "\n\ndef mul(a, b):\n    return a * b + 1\n"
    },
    tests={"test_calc.py": PY_TESTS},
    wrong_message="assert 6 == 5",
    syntax_error={"calc.py": "def add(a, b):\n    return a +\n"},
    syntax_file="calc.py",
    # Ignores the per-test alarm, so only the run's own timeout can stop it.
    loop_tests={
        "test_calc.py": "import signal\n\n\ndef test_loop():\n"
        "    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    while True:\n        pass\n"
    },
    hang_tests={
        "test_calc.py": "from calc import add\n\n\ndef test_hangs():\n    while True:\n"
        "        pass\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
    },
    hang_message="the test did not finish within 2 s",
    no_tests={"test_calc.py": "print('passed')\n"},
    huge_program={"big.py": f"print('x' * {HUGE_CHARS})\n"},
    huge_args=["big.py"],
    unloadable_test={
        "test_calc_more.py": "from calc import div\n\n\n"
        "def test_div():\n    assert div(4, 2) == 2\n"
    },
)

NODE = Cases(
    toolchain="node",
    language="javascript",
    module={
        "calc.js": "function add(a, b) {\n  return a + b;\n}\n"
        "function sub(a, b) { return a - b; }\n"
        "function mul(a, b) { return a * b; }\n"
        "module.exports = { add, sub, mul };\n"
    },
    wrong={
        "calc.js": "function add(a, b) {\n  return a + b + 1;\n}\n"
        "function sub(a, b) { return a - b; }\n"
        "function mul(a, b) { return a * b + 1; }\n"
        "module.exports = { add, sub, mul };\n"
    },
    tests={"calc.test.js": JS_TESTS},
    wrong_message="6 !== 5",
    syntax_error={"calc.js": "function add(a, b) {\n  return a +;\n}\nmodule.exports = { add };\n"},
    syntax_file="calc.js",
    # Loops while the file loads, outside any test.
    loop_tests={"calc.test.js": JS_HEAD + "test('loop', () => {});\nwhile (true) {}\n"},
    hang_tests={
        "calc.test.js": JS_HEAD + "const { add } = require('./calc');\n"
        "test('hangs', () => { while (true) {} });\n"
        "test('add', () => { assert.strictEqual(add(2, 3), 5); });\n"
    },
    hang_message="the test did not finish within 2 s",
    no_tests={"calc.test.js": "console.log('passed');\nprocess.exit(0);\n"},
    huge_program={"big.js": f"process.stdout.write('x'.repeat({HUGE_CHARS}));\n"},
    huge_args=["big.js"],
    unloadable_test={
        "more.test.js": JS_HEAD + "const { div } = require('./calc-more');\n"
        "test('div', () => { assert.strictEqual(div(4, 2), 2); });\n"
    },
)

JAVA = Cases(
    toolchain="java",
    language="java",
    module={"Calc.java": _java_calc("a + b", "a * b")},
    wrong={"Calc.java": _java_calc("a + b + 1", "a * b + 1")},
    tests={"CalcTest.java": JAVA_TESTS},
    wrong_message="expected: <5> but was: <6>",
    syntax_error={
        "Calc.java": "public class Calc {\n    static int add(int a, int b) { return a + b }\n}\n"
    },
    syntax_file="Calc.java",
    # Loops while the class initializes, outside any test method.
    loop_tests={
        "CalcTest.java": JAVA_IMPORTS + "class CalcTest {\n"
        "    static { while (System.nanoTime() != 0) { } }\n"
        "    @Test void loop() { }\n}\n"
    },
    hang_tests={
        "CalcTest.java": JAVA_IMPORTS + "class CalcTest {\n"
        "    @Test void hangs() { while (true) { } }\n"
        "    @Test void add() { assertEquals(5, Calc.add(2, 3)); }\n}\n"
    },
    hang_message="timed out after 2000 milliseconds",
    no_tests={
        "CalcTest.java": "class CalcTest {\n    public static void main(String[] args) {\n"
        '        System.out.println("passed");\n    }\n}\n'
    },
    huge_program={
        "Big.java": "public class Big { public static void main(String[] a) { "
        f'System.out.print("x".repeat({HUGE_CHARS})); }} }}\n'
    },
    huge_args=["Big"],
)

CASES = {cases.toolchain: cases for cases in (PYTHON, NODE, JAVA)}


def server_params(toolchain: str, backend: str = "docker") -> StdioServerParameters:
    """How an MCP client starts ``codeproof mcp toolchain <toolchain>``."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "codeproof", "mcp", "toolchain", toolchain, "--sandbox", backend],
    )


class SyncMcp:
    """A raw MCP ``ClientSession`` (official SDK, stdio) driven from synchronous tests."""

    def __init__(self, portal: BlockingPortal, session: ClientSession) -> None:
        self._portal = portal
        self._session = session

    def call(self, tool: str, arguments: dict[str, Any]) -> CallToolResult:
        async def run() -> CallToolResult:
            return await self._session.call_tool(tool, arguments, read_timeout_seconds=300)

        return self._portal.call(run)

    def structured(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The structured result of a call that must succeed."""
        result = self.call(tool, arguments)
        assert not result.is_error, text_of(result)
        assert result.structured_content is not None
        return result.structured_content

    def list_tools(self) -> ListToolsResult:
        return self._portal.call(self._session.list_tools)

    def read_text(self, uri: str) -> str:
        async def run() -> str:
            result = await self._session.read_resource(uri)
            return "".join(getattr(item, "text", "") for item in result.contents)

        return self._portal.call(run)


def text_of(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


@contextmanager
def mcp_session(params: StdioServerParameters) -> Iterator[SyncMcp]:
    """Start the server, initialize the session, yield it; stop everything at exit."""
    with start_blocking_portal() as portal:
        stops: list[anyio.Event] = []

        async def serve(*, task_status: TaskStatus[ClientSession]) -> None:
            stops.append(anyio.Event())
            async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
                await s.initialize()
                task_status.started(s)
                await stops[0].wait()

        done, session = portal.start_task(serve)
        try:
            yield SyncMcp(portal, session)
        finally:
            portal.call(stops[0].set)
            done.result(timeout=30)
