"""A module's one exported class or function is required either way
(languages/javascript/exports.py)."""

from __future__ import annotations

import pytest

from cleaned import passed_as_written_and_cleaned
from codeproof.languages.javascript.exports import both_shapes
from codeproof.languages.javascript.requires import fit_requires
from codeproof.toolchains.client import ToolchainClient

ASSIGN = "\n\nmodule.exports = Object.assign(X, module.exports, { X });\n"

CLASS = """\
class Thermostat {
  constructor(target = 20) {
    if (target < 5 || target > 30) throw new RangeError('target out of range');
    this.target = target;
  }

  raise(step = 1) {
    this.target = Math.min(30, this.target + step);
    return this.target;
  }
}
"""


@pytest.mark.parametrize(
    ("source", "name"),
    [
        (CLASS + "module.exports = Thermostat;", "Thermostat"),
        (CLASS + "module.exports = { Thermostat };", "Thermostat"),
        (CLASS + "module.exports = { Heater: Thermostat };", "Thermostat"),
        (CLASS + "exports.Thermostat = Thermostat;", "Thermostat"),
        ("const Clock = class {};\nmodule.exports = Clock;", "Clock"),
        ("function slugify(s) { return s; }\nmodule.exports = slugify;", "slugify"),
        ("const slugify = (s) => s;\nmodule.exports = { slugify };", "slugify"),
    ],
)
def test_one_exported_class_or_function_is_exported_both_ways(source: str, name: str) -> None:
    fixed = both_shapes(source)
    assert fixed == source + ASSIGN.replace("X", name)
    assert both_shapes(fixed) == fixed


@pytest.mark.parametrize(
    "source",
    [
        "class A {}\nclass B {}\nmodule.exports = { A, B };",  # two exports
        "const limit = 3;\nmodule.exports = { limit };",  # not a class or function
        "const api = { get() {} };\nmodule.exports = api;",
        "function name() {}\nmodule.exports = { name };",  # a function's own property
        "module.exports = class {};",  # nothing named
        "const { helper } = require('./helper');\nmodule.exports = { helper };",
        "export class A {}",  # an ES module
        "class A {}",  # nothing exported
    ],
)
def test_anything_else_is_left_as_written(source: str) -> None:
    assert both_shapes(source) == source


def test_a_dependency_exported_both_ways_is_still_required_where_it_is_used_unbound() -> None:
    dependency = both_shapes(CLASS + "module.exports = Thermostat;")
    user = "function warm() {\n  return new Thermostat(25).raise();\n}\nmodule.exports = { warm };"
    fitted = fit_requires(user, "home.js", {"thermostat.js": dependency})
    assert "const { Thermostat } = require('./thermostat');" in fitted


def _test(require: str) -> str:
    return f"""\
const test = require('node:test');
const assert = require('node:assert/strict');
{require}

test('the target is raised by one', () => {{
  const t = new Thermostat(21);
  assert.strictEqual(t.raise(), 22);
  assert.throws(() => new Thermostat(40), RangeError);
}});
"""


# A thermostat request: all 4 drafts exported the class as the whole module, and the
# designed tests destructured it ("Thermostat is not a constructor" in every test).
@pytest.mark.parametrize(
    ("export", "require"),
    [
        ("module.exports = Thermostat;", "const { Thermostat } = require('./thermostat');"),
        ("module.exports = { Thermostat };", "const Thermostat = require('./thermostat');"),
    ],
    ids=["whole-module-destructured", "object-required-whole"],
)
def test_the_cleaned_module_meets_a_test_requiring_it_the_other_way(
    javascript_toolchain: ToolchainClient, export: str, require: str
) -> None:
    written, cleaned = passed_as_written_and_cleaned(
        javascript_toolchain,
        "javascript",
        "thermostat.js",
        CLASS + export + "\n",
        {"thermostat.test.js": _test(require)},
    )
    assert (written, cleaned) == (0, 1)
