// Acceptance tests of js-slugify, written from request.md alone.
const test = require('node:test');
const assert = require('node:assert/strict');
const loaded = require('./slugify');
// "exporting one function, slugify": a bare function export or a named one
const slugify = typeof loaded === 'function' ? loaded : loaded.slugify;

test('hello world', () => {
  assert.equal(slugify('Hello, World!'), 'hello-world');
});

test('accents dropped, letters kept', () => {
  assert.equal(slugify('  Crème Brûlée: a recipe  '), 'creme-brulee-a-recipe');
});

test('cut after the last whole word that fits', () => {
  assert.equal(slugify('The quick brown fox', 12), 'the-quick');
});

test('a first word longer than maxLength is cut', () => {
  assert.equal(slugify('Supercalifragilistic word', 5), 'super');
});

test('a slug that fits exactly or easily is not cut', () => {
  assert.equal(slugify('hello world', 11), 'hello-world');
  assert.equal(slugify('hello world', 100), 'hello-world');
});

test('runs of other characters become one hyphen', () => {
  assert.equal(slugify('multiple   spaces -- and__underscores'), 'multiple-spaces-and-underscores');
});

test('digits are kept', () => {
  assert.equal(slugify('Top 10 Tips for 2024'), 'top-10-tips-for-2024');
});

test('no letters or digits gives the empty string', () => {
  assert.equal(slugify('!!! --- ???'), '');
  assert.equal(slugify(''), '');
});

test('a title that is not a string throws a TypeError', () => {
  for (const bad of [42, null, undefined, ['a']]) {
    assert.throws(() => slugify(bad), TypeError);
  }
});

test('shape and length on many titles', () => {
  const titles = [
    'Hello, World!', 'A  b  c', '--Leading and trailing--', 'Ünïcödé Tëxt Hère',
    'The quick brown fox jumps over the lazy dog', 'x', '2024: year in review', 'C++ & Rust?',
  ];
  for (const title of titles) {
    const full = slugify(title);
    assert.match(full, /^([a-z0-9]+(-[a-z0-9]+)*)?$/, `${title} -> ${full}`);
    for (let max = 1; max <= 30; max += 1) {
      const cut = slugify(title, max);
      assert.ok(cut.length <= max, `${title}, ${max} -> ${cut}`);
      assert.match(cut, /^([a-z0-9]+(-[a-z0-9]+)*)?$/, `${title}, ${max} -> ${cut}`);
      assert.ok(full.startsWith(cut), `${title}, ${max} -> ${cut}`);
    }
  }
});
