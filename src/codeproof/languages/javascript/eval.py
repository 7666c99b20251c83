"""JavaScript benchmark tasks (HumanEval-X): solution assembly, and scoring with a
throwing ``console.assert``."""

from __future__ import annotations

from collections.abc import Sequence

from codeproof.languages.benchmarks import BenchTask
from codeproof.languages.clike import close_braces
from codeproof.languages.reading import definitions
from codeproof.languages.syntax import parse


def _declared(code: str) -> set[str]:
    """Names declared at any level."""
    kinds = ("function", "variable", "class", "import")
    return {d.name for d in parse("javascript", code).declarations() if d.kind in kinds}


def assemble(task: BenchTask, code: str) -> str:
    if not defines(code, task.entry_point):
        return close_braces(task.prompt + code, "javascript")
    declared = definitions("javascript", task.prompt, task.entry_point)
    helpers = task.prompt[: declared[-1].node.start] if declared else ""
    if _declared(helpers) & _declared(code):
        helpers = ""  # the reply redefines the helpers too; `const` cannot be declared twice
    return close_braces(helpers + code.strip() + "\n", "javascript")


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
    return bool(definitions("javascript", code, entry_point))


def export(code: str, task: BenchTask) -> str:
    """A completion as a CommonJS module: it exports the entry point (the tests import it)."""
    if "module.exports" in code:
        return code
    return code + f"\nmodule.exports = {{ {task.entry_point} }};\n"
