const test = require('node:test');
const assert = require('node:assert/strict');
const { applyDiscount, formatPrice } = require('./pricing');

test('R1: Two CommonJS modules for the checkout of a small web shop.', () => {
  assert.strictEqual(typeof applyDiscount, 'function');
  assert.strictEqual(typeof formatPrice, 'function');
});

test('R2: applyDiscount(cents, percent) returns the discounted price in integer cents, rounding halves up: applyDiscount(1005, 50) returns 503.', () => {
  assert.strictEqual(applyDiscount(1005, 50), 503);
});

test('R3: A percent outside 0..100 throws a RangeError.', () => {
  assert.throws(() => applyDiscount(1005, 101), RangeError);
});

test('R4: formatPrice(1599) returns "$15.99".', () => {
  assert.strictEqual(formatPrice(1599), '$15.99');
});

test('R5: cart.js exports a class Cart, built on pricing.js, with addItem(name, priceCents, qty = 1), removeItem(name), itemCount(), subtotal() and total(discountPercent = 0).', () => {
  const { Cart } = require('./pricing');
  const cart = new Cart();
  assert.strictEqual(typeof cart, 'object');
  assert.strictEqual(typeof cart.addItem, 'function');
  assert.strictEqual(typeof cart.removeItem, 'function');
  assert.strictEqual(typeof cart.itemCount, 'function');
  assert.strictEqual(typeof cart.subtotal, 'function');
  assert.strictEqual(typeof cart.total, 'function');
});

test('R6: the price stays the one given first. - qty must be a positive integer and priceCents a non-negative integer, otherwise addItem throws a RangeError.', () => {
  const { Cart } = require('./pricing');
  const cart = new Cart();
  assert.throws(() => cart.addItem('pen', -1), RangeError);
  assert.throws(() => cart.addItem('pen', 0), RangeError);
  assert.throws(() => cart.addItem('pen', 'abc'), RangeError);
  assert.throws(() => cart.addItem('pen', 150, -1), RangeError);
  assert.throws(() => cart.addItem('pen', 150, 0), RangeError);
  assert.throws(() => cart.addItem('pen', 150, 'abc'), RangeError);
});

test('R7: removing a name that is not in the cart throws an Error.', () => {
  const { Cart } = require('./pricing');
  const cart = new Cart();
  assert.throws(() => cart.removeItem('pen'), Error);
});

test('R8: Example: after cart.addItem("pen", 150, 2) and cart.addItem("book", 1299), cart.itemCount() is 3, cart.subtotal() is 1599 and cart.total(10) is 1439.', () => {
  const { Cart } = require('./pricing');
  const cart = new Cart();
  cart.addItem('pen', 150, 2);
  cart.addItem('book', 1299);
  assert.strictEqual(cart.itemCount(), 3);
  assert.strictEqual(cart.subtotal(), 1599);
  assert.strictEqual(cart.total(10), 1439);
});
