function evaluate(expr) {
  const tokens = tokenize(expr);
  const stack = [];

  for (const token of tokens) {
    if (token.type === 'number') {
      stack.push(token.value);
    } else if (token.type === 'op') {
      const right = stack.pop();
      const left = stack.pop();
      switch (token.value) {
        case '+':
          stack.push(left + right);
          break;
        case '-':
          stack.push(left - right);
          break;
        case '*':
          stack.push(left * right);
          break;
        case '/':
          if (right === 0) {
            throw new RangeError('Division by zero');
          }
          stack.push(left / right);
          break;
      }
    } else if (token.type === 'paren') {
      if (token.value === '(') {
        stack.push(token.value);
      } else {
        while (stack[stack.length - 1] !== '(') {
          const op = stack.pop();
          const right = stack.pop();
          const left = stack.pop();
          switch (op) {
            case '+':
              stack.push(left + right);
              break;
            case '-':
              stack.push(left - right);
              break;
            case '*':
              stack.push(left * right);
              break;
            case '/':
              if (right === 0) {
                throw new RangeError('Division by zero');
              }
              stack.push(left / right);
              break;
          }
        }
        stack.pop(); // Remove the '('
      }
    }
  }

  return stack[0];
}
