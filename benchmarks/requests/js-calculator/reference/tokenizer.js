// Reference solution of js-calculator: tokens.
function tokenize(expr) {
  const tokens = [];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i];
    if (c === ' ') {
      i += 1;
    } else if ('+-*/'.includes(c)) {
      tokens.push({ type: 'op', value: c });
      i += 1;
    } else if (c === '(' || c === ')') {
      tokens.push({ type: 'paren', value: c });
      i += 1;
    } else if (/[0-9.]/.test(c)) {
      const match = /^\d*\.?\d+|^\d+\.?/.exec(expr.slice(i));
      if (!match) throw new SyntaxError(`bad number at ${i}`);
      tokens.push({ type: 'number', value: Number(match[0]) });
      i += match[0].length;
    } else {
      throw new SyntaxError(`unexpected character ${JSON.stringify(c)} at ${i}`);
    }
  }
  return tokens;
}

module.exports = { tokenize };
