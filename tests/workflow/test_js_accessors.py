"""Fields hidden by their class's accessor are stored as ``_name``
(languages/javascript/accessors.py)."""

from __future__ import annotations

import pytest

from cleaned import passed_as_written_and_cleaned
from codeproof.languages.javascript.accessors import own_fields
from codeproof.toolchains.client import ToolchainClient

# The shape of the shipped module of js-order-flow at 7fedcec (and of its one-call runs):
# `new Order()` throws, so every test fails on its first line.
ORDER = """\
class Order {
  constructor() {
    this.state = 'pending';
    this.history = ['pending'];
  }

  pay() {
    if (this.state !== 'pending') {
      throw new Error(`cannot pay an order that is ${this.state}`);
    }
    this.state = 'paid';
    this.history.push('paid');
  }

  get state() {
    return this.state;
  }

  get history() {
    return [...this.history];
  }
}

module.exports = { Order };
"""


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (  # a getter with the field assigned in the constructor
            "class A { constructor() { this.n = 0; } get n() { return this.n; } }",
            "class A { constructor() { this._n = 0; } get n() { return this._n; } }",
        ),
        (  # updated in a method, read in an arrow function (the method's `this`)
            "class A { inc() { this.n++; [1].map(() => this.n); } get n() { return 1; } }",
            "class A { inc() { this._n++; [1].map(() => this._n); } get n() { return 1; } }",
        ),
        (  # a field declaration of the getter's name
            "class A { n = 0; get n() { return this.n * 2; } }",
            "class A { _n = 0; get n() { return this._n * 2; } }",
        ),
        (  # a setter that assigns itself: only the accessors' own uses change
            "class A { constructor(v) { this.v = v; } get v() { return this.v; } "
            "set v(x) { if (x < 0) throw new RangeError('v'); this.v = x; } }",
            "class A { constructor(v) { this.v = v; } get v() { return this._v; } "
            "set v(x) { if (x < 0) throw new RangeError('v'); this._v = x; } }",
        ),
        (  # each class on its own: the inner class's `this` is its own
            "class A { constructor() { this.k = 1; } get k() { return this.k; } "
            "m() { return class B { constructor() { this.k = 2; } }; } }",
            "class A { constructor() { this._k = 1; } get k() { return this._k; } "
            "m() { return class B { constructor() { this.k = 2; } }; } }",
        ),
    ],
)
def test_an_accessor_hiding_its_field_gets_the_field_renamed(source: str, expected: str) -> None:
    assert own_fields(source) == expected


@pytest.mark.parametrize(
    "source",
    [
        # a getter computed from other fields, read elsewhere
        "class R { constructor(w) { this.w = w; } get area() { return this.w ** 2; } "
        "twice() { return this.area * 2; } }",
        # `_n` is already a name of the class
        "class A { constructor() { this.n = 0; this._n = 1; } get n() { return this.n; } }",
        # a plain function has its own `this`
        "class A { get n() { return 1; } m() { return function () { this.n = 2; }; } }",
        # a method of an object literal inside a method has the literal as its `this`
        "class A { get n() { return 1; } m() { return { set(v) { this.n = v; } }; } }",
        # static members, and object literals, are not instances of a class
        "class A { static get n() { return this.n; } static m() { this.n = 1; } }",
        "const o = { get n() { return this.n; }, m() { this.n = 1; } };",
        # a setter whose body writes another field
        "class A { set n(x) { this._n = x; } get n() { return this._n; } }",
        "class A { constructor() { this.s = 'x'; } get s2() { return this.s; } }",
    ],
)
def test_anything_else_is_left_as_written(source: str) -> None:
    assert own_fields(source) == source


FIELDS = ORDER.replace(
    "  constructor() {\n    this.state = 'pending';\n    this.history = ['pending'];\n  }\n",
    "  state = 'pending';\n  history = ['pending'];\n",
)
TEST = """\
const test = require('node:test');
const assert = require('node:assert/strict');
const { Order } = require('./orderFlow');

test('a paid order has a history', () => {
  const order = new Order();
  order.pay();
  assert.strictEqual(order.state, 'paid');
  assert.deepStrictEqual(order.history, ['pending', 'paid']);
  order.history.push('x');
  assert.deepStrictEqual(order.history, ['pending', 'paid']);
  assert.throws(() => order.pay(), { message: 'cannot pay an order that is paid' });
});
"""


@pytest.mark.parametrize(
    "module",
    [ORDER, FIELDS],
    ids=["assigned-in-the-constructor", "declared-fields"],
)
def test_the_cleaned_module_runs_where_the_draft_threw(
    javascript_toolchain: ToolchainClient, module: str
) -> None:
    # as written: a TypeError on `new Order()`; fields that hide the getters, so the
    # history returned is the order's own list
    written, cleaned = passed_as_written_and_cleaned(
        javascript_toolchain, "javascript", "orderFlow.js", module, {"orderFlow.test.js": TEST}
    )
    assert (written, cleaned) == (0, 1)
