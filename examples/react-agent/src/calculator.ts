/**
 * Evaluates an arithmetic expression: numbers, + - * / % ^, parentheses and unary minus. A tiny recursive-descent
 * parser, so the calculator tool never hands user text to `eval`.
 */
export function evaluateExpression(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?|\.\d+|[-+*/%^()]|\S/g) ?? [];
  let position = 0;
  const peek = (): string | undefined => tokens[position];
  const take = (): string | undefined => tokens[position++];

  const primary = (): number => {
    const token = take();
    if (token === '(') {
      const value = sum();
      if (take() !== ')') throw new Error(`Missing ")" in "${expression}"`);
      return value;
    }
    if (token === '-') return -primary();
    if (token === '+') return primary();
    if (token !== undefined && /^(\d|\.\d)/.test(token)) return Number(token);
    throw new Error(token === undefined ? `Unexpected end of "${expression}"` : `Unexpected "${token}" in "${expression}"`);
  };
  const power = (): number => {
    const base = primary();
    // Right-associative: 2^3^2 = 2^(3^2).
    if (peek() === '^') {
      take();
      return base ** power();
    }
    return base;
  };
  const product = (): number => {
    let value = power();
    while (peek() === '*' || peek() === '/' || peek() === '%') {
      const operator = take();
      const right = power();
      if ((operator === '/' || operator === '%') && right === 0) throw new Error('Division by zero');
      value = operator === '*' ? value * right : operator === '/' ? value / right : value % right;
    }
    return value;
  };
  const sum = (): number => {
    let value = product();
    while (peek() === '+' || peek() === '-') {
      value = take() === '+' ? value + product() : value - product();
    }
    return value;
  };

  if (tokens.length === 0) throw new Error('Empty expression');
  const result = sum();
  if (position < tokens.length) throw new Error(`Unexpected "${tokens[position]}" in "${expression}"`);
  return result;
}

/** A result without floating-point noise (0.1 + 0.2 → 0.3). */
export function formatNumber(value: number): string {
  return String(Number.parseFloat(value.toPrecision(12)));
}
