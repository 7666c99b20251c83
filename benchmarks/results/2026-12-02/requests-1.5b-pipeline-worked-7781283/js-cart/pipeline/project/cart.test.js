const test = require('node:test');
const assert = require('node:assert/strict');
const { Cart } = require('./cart');

test('R2: pricing.js exports applyDiscount(cents, percent) and formatPrice(cents).', () => {
  const { applyDiscount, formatPrice } = require('./pricing');

  assert.strictEqual(typeof applyDiscount, 'function');
  assert.strictEqual(typeof formatPrice, 'function');

  assert.strictEqual(applyDiscount(1005, 50), 503);
  assert.strictEqual(formatPrice(1599), '$15.99');
});

test('R3: A percent outside 0..100 throws a RangeError.', () => {
  const { applyDiscount } = require('./pricing');

  assert.throws(() => applyDiscount(1005, 150), RangeError);
});

test('R4: formatPrice(1599) returns "$15.99".', () => {
  const { formatPrice } = require('./pricing');

  assert.strictEqual(formatPrice(1599), '$15.99');
});

test('R8: Example: after cart.addItem("pen", 150, 2) and cart.addItem("book", 1299), cart.itemCount() is 3, cart.subtotal() is 1599 and cart.total(10) is 1439.', () => {
  const { Cart } = require('./cart');

  const cart = new Cart();
  cart.addItem('pen', 150, 2);
  cart.addItem('book', 1299);
  assert.strictEqual(cart.itemCount(), 3);
  assert.strictEqual(cart.subtotal(), 1599);
  assert.strictEqual(cart.total(10), 1439);
});
