const test = require('node:test');
const assert = require('node:assert/strict');
const { Cart } = require('./cart');

test('R1: Two CommonJS modules for the checkout of a small web shop.', () => {
  assert.strictEqual(typeof Cart, 'function');
  assert.strictEqual(typeof Cart.prototype.addItem, 'function');
  assert.strictEqual(typeof Cart.prototype.removeItem, 'function');
  assert.strictEqual(typeof Cart.prototype.itemCount, 'function');
  assert.strictEqual(typeof Cart.prototype.subtotal, 'function');
  assert.strictEqual(typeof Cart.prototype.total, 'function');
});

test('R2: pricing.js exports applyDiscount(cents, percent) and formatPrice(cents). applyDiscount takes a price in integer cents and a percentage from 0 to 100 and returns the discounted price in integer cents, rounding halves up: applyDiscount(1005, 50) returns 503.', () => {
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 50), 503);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 100), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 150), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 200), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 250), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 300), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 350), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 400), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 450), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 500), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 550), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 600), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 650), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 700), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 750), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 800), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 850), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 900), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 950), 1005);
  assert.strictEqual(Cart.prototype.applyDiscount(1005, 1000), 1005);
