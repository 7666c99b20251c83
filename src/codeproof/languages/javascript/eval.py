"""JavaScript benchmark tasks (HumanEval-X): solution assembly, and scoring with a
throwing ``console.assert``."""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeproof.languages.base import BenchTask
from codeproof.languages.clike import C_COMMENTS, close_braces

_JS_NAMES = re.compile(r"(?:\b(?:const|let|var)\s+(\w+)\s*=|\bfunction\s+(\w+)\s*\()")


def _js_declaration(name: str) -> str:
    """A JavaScript function declaration of ``name`` (not a variable of that name)."""
    name = re.escape(name)
    value = r"(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|\w+\s*=>)"
    return rf"(?:\bfunction\s+{name}\s*\(|\b(?:const|let|var)\s+{name}\s*=\s*{value})"


def _js_declared(code: str) -> set[str]:
    """Names declared at any level (comments ignored)."""
    return {a or b for a, b in _JS_NAMES.findall(C_COMMENTS.sub("", code))}


def assemble(task: BenchTask, code: str) -> str:
    if not defines(code, task.entry_point):
        return close_braces(task.prompt + code)
    declared = list(re.finditer(_js_declaration(task.entry_point), task.prompt))
    helpers = task.prompt[: declared[-1].start()] if declared else ""
    if _js_declared(helpers) & _js_declared(code):
        helpers = ""  # the reply redefines the helpers too; `const` cannot be declared twice
    return close_braces(helpers + code.strip() + "\n")


JS_THROWING_ASSERT = """
// codeproof: console.assert only prints in Node.js; make a failed assertion fail the run.
console.assert = (condition, ...data) => {
  if (!condition) {
    throw new Error("Assertion failed" + (data.length ? ": " + data.join(" ") : ""));
  }
};
"""


JS_MD5_SHIM = """// codeproof: the `js-md5` module used by one HumanEval-X task, on Node's crypto.
const crypto = require("crypto");
module.exports = (text) => crypto.createHash("md5").update(String(text)).digest("hex");
"""


class JavaScriptScorer:
    """Solution + a throwing ``console.assert`` + the test, run by ``node``."""

    sandbox_image = "node"

    def files(self, task: BenchTask, solution: str) -> dict[str, str]:
        return {"test.js": f"{solution.rstrip()}\n{JS_THROWING_ASSERT}\n{task.test}\n"}

    def command(self) -> str:
        return "node test.js"

    def prepare(self, dirs: Sequence[str]) -> tuple[dict[str, str], list[str] | None]:
        return {"node_modules/js-md5/index.js": JS_MD5_SHIM}, None


def defines(code: str, entry_point: str) -> bool:
    """Whether ``code`` declares ``entry_point`` (a function, or a variable bound to one)."""
    return re.search(_js_declaration(entry_point), code, re.MULTILINE) is not None


def export(code: str, task: BenchTask) -> str:
    """A completion as a CommonJS module: it exports the entry point (the tests import it)."""
    if "module.exports" in code:
        return code
    return code + f"\nmodule.exports = {{ {task.entry_point} }};\n"
