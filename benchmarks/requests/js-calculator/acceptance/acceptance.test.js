// Acceptance tests of js-calculator, written from request.md alone.
const test = require('node:test');
const assert = require('node:assert/strict');
const { tokenize } = require('./tokenizer');
const { evaluate } = require('./calc');

test('tokenize the stated example', () => {
  assert.deepEqual(
    tokenize('12+(3.5)').map((t) => ({ type: t.type, value: t.value })),
    [
      { type: 'number', value: 12 },
      { type: 'op', value: '+' },
      { type: 'paren', value: '(' },
      { type: 'number', value: 3.5 },
      { type: 'paren', value: ')' },
    ],
  );
});

test('tokenize skips spaces', () => {
  assert.deepEqual(
    tokenize(' 1 *  2 / 4 - 7 ').map((t) => [t.type, t.value]),
    [['number', 1], ['op', '*'], ['number', 2], ['op', '/'], ['number', 4], ['op', '-'], ['number', 7]],
  );
});

test('tokenize throws a SyntaxError on other characters', () => {
  assert.throws(() => tokenize('2 $ 3'), SyntaxError);
  assert.throws(() => tokenize('a+1'), SyntaxError);
});

test('precedence', () => {
  assert.equal(evaluate('2 + 3 * 4'), 14);
});

test('parentheses', () => {
  assert.equal(evaluate('(2 + 3) * 4'), 20);
});

test('left to right subtraction', () => {
  assert.equal(evaluate('8 - 3 - 2'), 3);
});

test('left to right division', () => {
  assert.equal(evaluate('10 / 4'), 2.5);
  assert.equal(evaluate('8 / 4 / 2'), 1);
});

test('unary minus', () => {
  assert.equal(evaluate('-(2 + 1) * 2'), -6);
  assert.equal(evaluate('2 * -3'), -6);
  assert.equal(evaluate('-3 + 5'), 2);
});

test('decimals', () => {
  assert.equal(evaluate('1.5 * 4'), 6);
});

test('division by zero throws a RangeError', () => {
  assert.throws(() => evaluate('1 / 0'), RangeError);
  assert.throws(() => evaluate('5 / (2 - 2)'), RangeError);
});

test('malformed expressions throw a SyntaxError', () => {
  for (const expr of ['2 +', '(1', '', '1 + 2)', '* 3']) {
    assert.throws(() => evaluate(expr), SyntaxError, JSON.stringify(expr));
  }
});

test('other characters throw a SyntaxError from evaluate too', () => {
  assert.throws(() => evaluate('2 ^ 3'), SyntaxError);
});
