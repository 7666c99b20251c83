const test = require('node:test');
const assert = require('node:assert/strict');
const { slugify } = require('./slugify');

// R1: I need slugify.js, a Node.js module (CommonJS) exporting one function, slugify(title, maxLength), that builds URL slugs from article titles.
test('R1: slugify("Hello, World!") should return "hello-world"', () => {
  assert.strictEqual(slugify('Hello, World!'), 'hello-world');
});

test('R1: slugify(" Crème Brûlée: a recipe ") should return "creme-brulee-a-recipe"', () => {
  assert.strictEqual(slugify(' Crème Brûlée: a recipe '), 'creme-brulee-a-recipe');
});

test('R1: slugify("The quick brown fox") should return "the-quick"', () => {
  assert.strictEqual(slugify('The quick brown fox'), 'the-quick');
});

test('R1: slugify("The quick brown fox", 12) should return "the-quick"', () => {
  assert.strictEqual(slugify('The quick brown fox', 12), 'the-quick');
});

test('R1: slugify("The quick brown fox", 10) should return "the-quick"', () => {
  assert.strictEqual(slugify('The quick brown fox', 10), 'the-quick');
});

test('R1: slugify("The quick brown fox", 9) should return "the-quick"', () => {
  assert.strictEqual(slugify('The quick brown fox', 9), 'the-quick');
});

test('R1: slugify("The quick brown fox") should return an empty string if the title contains no letters or digits', () => {
  assert.strictEqual(slugify(''), '');
});

test('R1: slugify("The quick brown fox") should throw a TypeError if the title is not a string', () => {
  assert.throws(() => slugify(123), TypeError);
});

// R2: - For "Hello, World!" the output should be "hello-world". - For " Crème Brûlée: a recipe " the output should be "creme-brulee-a-recipe" (accents are dropped, the letters are kept). - The slug is lowercase and contains only a-z, 0-9 and single hyphens between words;
