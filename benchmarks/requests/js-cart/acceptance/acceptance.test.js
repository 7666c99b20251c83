// Acceptance tests of js-cart, written from request.md alone.
const test = require('node:test');
const assert = require('node:assert/strict');
const { applyDiscount, formatPrice } = require('./pricing');
const loaded = require('./cart');
// "exports a class Cart": a bare class export or a named one
const Cart = loaded.Cart || loaded;

test('applyDiscount rounds halves up', () => {
  assert.equal(applyDiscount(1005, 50), 503);
  assert.equal(applyDiscount(999, 50), 500);
});

test('applyDiscount at 0 and 100 percent', () => {
  assert.equal(applyDiscount(1000, 0), 1000);
  assert.equal(applyDiscount(1000, 100), 0);
});

test('applyDiscount outside 0..100 throws a RangeError', () => {
  assert.throws(() => applyDiscount(1000, -1), RangeError);
  assert.throws(() => applyDiscount(1000, 101), RangeError);
});

test('formatPrice', () => {
  assert.equal(formatPrice(1599), '$15.99');
  assert.equal(formatPrice(5), '$0.05');
  assert.equal(formatPrice(0), '$0.00');
});

test('the example cart', () => {
  const cart = new Cart();
  cart.addItem('pen', 150, 2);
  cart.addItem('book', 1299);
  assert.equal(cart.itemCount(), 3);
  assert.equal(cart.subtotal(), 1599);
  assert.equal(cart.total(10), 1439);
});

test('total without a discount is the subtotal', () => {
  const cart = new Cart();
  cart.addItem('pen', 150, 2);
  assert.equal(cart.total(), 300);
});

test('total with a percent outside 0..100 throws a RangeError', () => {
  const cart = new Cart();
  cart.addItem('pen', 150, 2);
  assert.throws(() => cart.total(150), RangeError);
});

test('adding a name again increases its quantity at the first price', () => {
  const cart = new Cart();
  cart.addItem('pen', 150);
  cart.addItem('pen', 999, 2);
  assert.equal(cart.itemCount(), 3);
  assert.equal(cart.subtotal(), 450);
});

test('a quantity that is not a positive integer throws a RangeError', () => {
  const cart = new Cart();
  for (const qty of [0, -1, 1.5]) {
    assert.throws(() => cart.addItem('pen', 150, qty), RangeError);
  }
  assert.equal(cart.itemCount(), 0);
});

test('a price that is not a non-negative integer throws a RangeError', () => {
  const cart = new Cart();
  for (const price of [-1, 1.5]) {
    assert.throws(() => cart.addItem('pen', price), RangeError);
  }
  cart.addItem('gift', 0);
  assert.equal(cart.subtotal(), 0);
  assert.equal(cart.itemCount(), 1);
});

test('removeItem removes the whole quantity', () => {
  const cart = new Cart();
  cart.addItem('pen', 150, 2);
  cart.addItem('book', 1299);
  cart.removeItem('pen');
  assert.equal(cart.itemCount(), 1);
  assert.equal(cart.subtotal(), 1299);
});

test('removing a name that is not in the cart throws', () => {
  const cart = new Cart();
  cart.addItem('pen', 150);
  assert.throws(() => cart.removeItem('book'), Error);
  assert.equal(cart.itemCount(), 1);
});

test('an empty cart', () => {
  const cart = new Cart();
  assert.equal(cart.itemCount(), 0);
  assert.equal(cart.subtotal(), 0);
  assert.equal(cart.total(), 0);
});
