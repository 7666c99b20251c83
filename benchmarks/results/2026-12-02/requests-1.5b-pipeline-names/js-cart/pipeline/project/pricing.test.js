const test = require('node:test');
const assert = require('node:assert/strict');
const { applyDiscount, formatPrice } = require('./pricing');

test('R1: Two CommonJS modules for the checkout of a small web shop.', () => {
  assert.strictEqual(typeof applyDiscount, 'function');
  assert.strictEqual(typeof formatPrice, 'function');
});

test('R2: pricing.js exports applyDiscount(cents, percent) and formatPrice(cents). applyDiscount takes a price in integer cents and a percentage from 0 to 100 and returns the discounted price in integer cents, rounding halves up: applyDiscount(1005, 50) returns 503.', () => {
  assert.strictEqual(applyDiscount(1005, 50), 503);
  /* codeproof: set aside, applyDiscount(1500, 100) -> 1500 (the agreeing candidates return 0) */
  assert.strictEqual(applyDiscount(1500, 101), 1500);
  assert.strictEqual(applyDiscount(1500, 102), 1501);
  assert.strictEqual(applyDiscount(1500, 103), 1501);
  assert.strictEqual(applyDiscount(1500, 104), 1502);
  assert.strictEqual(applyDiscount(1500, 105), 1502);
  assert.strictEqual(applyDiscount(1500, 106), 1503);
  assert.strictEqual(applyDiscount(1500, 107), 1503);
  assert.strictEqual(applyDiscount(1500, 108), 1504);
  assert.strictEqual(applyDiscount(1500, 109), 1504);
  assert.strictEqual(applyDiscount(1500, 110), 1505);
  assert.strictEqual(applyDiscount(1500, 111), 1505);
  assert.strictEqual(applyDiscount(1500, 112), 1506);
  assert.strictEqual(applyDiscount(1500, 113), 1506);
  assert.strictEqual(applyDiscount(1500, 114), 1507);
  assert.strictEqual(applyDiscount(1500, 115), 1507);
  assert.strictEqual(applyDiscount(1500, 116), 1508);
  assert.strictEqual(applyDiscount(1500, 117), 1508);
  assert.strictEqual(applyDiscount(1500, 118), 1509);
