// Reference solution of js-calculator: evaluation by recursive descent.
const { tokenize } = require('./tokenizer');

function evaluate(expr) {
  const tokens = tokenize(expr);
  let pos = 0;
  const peek = () => tokens[pos];
  const isOp = (t, values) => t !== undefined && t.type === 'op' && values.includes(t.value);

  function primary() {
    const t = tokens[pos];
    if (t === undefined) throw new SyntaxError('unexpected end of expression');
    pos += 1;
    if (t.type === 'number') return t.value;
    if (isOp(t, ['-'])) return -primary();
    if (t.type === 'paren' && t.value === '(') {
      const value = sum();
      const close = tokens[pos];
      if (!close || close.type !== 'paren' || close.value !== ')') {
        throw new SyntaxError('missing )');
      }
      pos += 1;
      return value;
    }
    throw new SyntaxError(`unexpected ${t.value}`);
  }

  function product() {
    let value = primary();
    while (isOp(peek(), ['*', '/'])) {
      const op = tokens[pos].value;
      pos += 1;
      const right = primary();
      if (op === '/' && right === 0) throw new RangeError('division by zero');
      value = op === '*' ? value * right : value / right;
    }
    return value;
  }

  function sum() {
    let value = product();
    while (isOp(peek(), ['+', '-'])) {
      const op = tokens[pos].value;
      pos += 1;
      const right = product();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  }

  const result = sum();
  if (pos !== tokens.length) throw new SyntaxError(`unexpected ${tokens[pos].value}`);
  return result;
}

module.exports = { evaluate };
