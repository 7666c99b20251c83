"""How a module and its tests are laid out for each toolchain.

These texts are served as the MCP resources ``conventions://<toolchain>`` and the
agents put them verbatim in their prompts, so the files they generate are exactly
what the toolchain servers know how to run.
"""

from __future__ import annotations

from codeproof.core.errors import InputError

PYTHON_CONVENTIONS = """\
Python toolchain conventions (Python 3, pytest):
- The module is one file `<module>.py` at the project root (no package, no sub-directory).
- Its tests are in `test_<module>.py` at the project root and import the module with
  `from <module> import <names>`.
- Tests are plain pytest functions named `test_*` that check results with plain `assert`
  statements (use `pytest.raises` for expected exceptions); no unittest classes.
- Only the standard library and pytest are available. No network access, and no files
  outside the current working directory.
"""

JAVASCRIPT_CONVENTIONS = """\
JavaScript toolchain conventions (Node.js, CommonJS, built-in test runner):
- The module is one file `<module>.js` at the project root, written as CommonJS: it ends
  with `module.exports = { ... }` listing the exported functions or classes.
- Its tests are in `<module>.test.js` at the project root and start with:
  `const test = require('node:test');`
  `const assert = require('node:assert/strict');`
  and load the module with `const { <names> } = require('./<module>');`.
- Each test is `test('<description>', () => { ... });` and checks results with
  `assert.strictEqual`, `assert.deepStrictEqual`, `assert.ok` or `assert.throws`.
- Only Node's built-in modules are available (no npm packages). No network access, and no
  files outside the current working directory.
"""

JAVA_CONVENTIONS = """\
Java toolchain conventions (Java 17, JUnit 5):
- The code is a public class `<ClassName>` in `<ClassName>.java` at the project root, in the
  default package: no `package` line.
- Its tests are the class `<ClassName>Test` in `<ClassName>Test.java` at the project root,
  also in the default package, using JUnit 5:
  `import org.junit.jupiter.api.Test;`
  `import static org.junit.jupiter.api.Assertions.*;`
- Each test is a method annotated with `@Test` (package-private `void` methods are fine) that
  checks results with `assertEquals`, `assertTrue`, `assertFalse` or `assertThrows`.
- Only the JDK standard library and JUnit 5 are available. No network access, and no files
  outside the current working directory.
"""

CONVENTIONS: dict[str, str] = {
    "python": PYTHON_CONVENTIONS,
    "node": JAVASCRIPT_CONVENTIONS,
    "java": JAVA_CONVENTIONS,
}
"""Conventions text per toolchain name (the names of ``codeproof mcp toolchain``)."""


def conventions_text(toolchain: str) -> str:
    """The conventions text of a built-in toolchain.

    Args:
        toolchain: ``python``, ``node`` or ``java``.

    Raises:
        InputError: The toolchain is not one of the built-in ones.
    """
    try:
        return CONVENTIONS[toolchain]
    except KeyError:
        raise InputError(
            f"no built-in toolchain {toolchain!r}",
            hint=f"use one of: {', '.join(CONVENTIONS)}",
        ) from None
