// Acceptance tests of js-csv, written from request.md alone.
const test = require('node:test');
const assert = require('node:assert/strict');
const { parseCsv, toCsv } = require('./csv');

test('table row 1: two rows', () => {
  assert.deepEqual(parseCsv('a,b\n1,2'), [['a', 'b'], ['1', '2']]);
});

test('table row 2: quoted comma', () => {
  assert.deepEqual(parseCsv('"x, y",z'), [['x, y', 'z']]);
});

test('table row 3: doubled quotes', () => {
  assert.deepEqual(parseCsv('"say ""hi""",ok'), [['say "hi"', 'ok']]);
});

test('table row 4: empty field', () => {
  assert.deepEqual(parseCsv('a,,b'), [['a', '', 'b']]);
});

test('CRLF separates rows too', () => {
  assert.deepEqual(parseCsv('a,b\r\n1,2\r\n'), [['a', 'b'], ['1', '2']]);
});

test('a quoted field may hold a line break', () => {
  assert.deepEqual(parseCsv('"line1\nline2",x\ny,z'), [['line1\nline2', 'x'], ['y', 'z']]);
});

test('a final line break adds no row', () => {
  assert.deepEqual(parseCsv('a,b\n'), [['a', 'b']]);
});

test('empty text has no rows', () => {
  assert.deepEqual(parseCsv(''), []);
});

test('an unterminated quoted field throws a SyntaxError', () => {
  assert.throws(() => parseCsv('"abc'), SyntaxError);
  assert.throws(() => parseCsv('a,"b\nc'), SyntaxError);
});

test('toCsv joins with \\n and no final newline', () => {
  assert.equal(toCsv([['a', 'b'], ['1', '2']]), 'a,b\n1,2');
});

test('toCsv quotes only when needed', () => {
  assert.equal(
    toCsv([['x, y', 'say "hi"', 'plain', 'two\nlines']]),
    '"x, y","say ""hi""",plain,"two\nlines"',
  );
});

test('round trip on generated rows', () => {
  let seed = 12345;
  const next = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const alphabet = ['a', 'b', 'Z', '1', ' ', ',', '"', '\n', 'é'];
  for (let i = 0; i < 200; i += 1) {
    const rows = [];
    for (let r = 0; r <= next(4); r += 1) {
      const row = [];
      for (let f = 0; f <= next(4); f += 1) {
        let field = '';
        for (let c = 0; c <= next(6); c += 1) field += alphabet[next(alphabet.length)];
        row.push(field);
      }
      rows.push(row);
    }
    assert.deepEqual(parseCsv(toCsv(rows)), rows, JSON.stringify(rows));
  }
});
