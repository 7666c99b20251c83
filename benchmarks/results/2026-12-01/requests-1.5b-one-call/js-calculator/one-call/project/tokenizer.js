function tokenize(expr) {
  const tokens = [];
  let current = 0;
  let value = '';

  while (current < expr.length) {
    const char = expr[current];

    if (char === ' ') {
      current++;
      continue;
    }

    if (char === '(' || char === ')') {
      tokens.push({ type: 'paren', value: char });
      current++;
      continue;
    }

    if (char === '+' || char === '-' || char === '*' || char === '/') {
      if (value !== '') {
        tokens.push({ type: 'number', value: parseFloat(value) });
      }
      tokens.push({ type: 'op', value: char });
      value = '';
      current++;
      continue;
    }

    value += char;
    current++;
  }

  if (value !== '') {
    tokens.push({ type: 'number', value: parseFloat(value) });
  }

  return tokens;
}
