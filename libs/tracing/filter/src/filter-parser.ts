import { FilterSyntaxError } from './filter-syntax.error';
import { describeToken, tokenize, type Token } from './filter-tokenizer';
import type { FilterScalar } from './filter-ast';

/** The parse tree before any meaning is checked: calls, bare names, literals and arrays, each with its position. */
export type SyntaxNode =
  | { kind: 'call'; name: string; args: SyntaxNode[]; position: number; end: number }
  | { kind: 'name'; name: string; position: number }
  | { kind: 'literal'; value: FilterScalar; position: number }
  | { kind: 'array'; items: { value: FilterScalar; position: number }[]; position: number };

const unexpected = (token: Token, expected: string) =>
  new FilterSyntaxError(`Unexpected ${describeToken(token)} at position ${token.position}: expected ${expected}`, token.position);

// Recursive descent over:  filter := call END ;  call := NAME "(" [arg ("," arg)*] ")" ;
// arg := call | NAME | literal | "[" [literal ("," literal)*] "]"
/** Deepest nesting of calls accepted, so a hostile filter cannot exhaust the stack. */
export const MAX_FILTER_DEPTH = 64;

class Parser {
  private index = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)];
  }

  private take(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index += 1;
    return token;
  }

  private expect(kind: Token['kind'], expected: string): Token {
    const token = this.take();
    if (token.kind !== kind) throw unexpected(token, expected);
    return token;
  }

  filter(): SyntaxNode {
    const first = this.peek();
    if (first.kind === 'end') throw new FilterSyntaxError('Empty filter at position 0: expected a call such as eq(name, "x")', 0);
    if (first.kind !== 'ident') throw unexpected(first, 'a call such as eq(name, "x")');
    const node = this.call();
    const rest = this.peek();
    if (rest.kind !== 'end') throw unexpected(rest, 'end of input (combine conditions with and(...) or or(...))');
    return node;
  }

  private call(): SyntaxNode & { kind: 'call' } {
    const name = this.take() as Token & { kind: 'ident' };
    this.expect('(', `"(" after "${name.name}"`);
    if (++this.depth > MAX_FILTER_DEPTH) {
      throw new FilterSyntaxError(`Filter nests deeper than ${MAX_FILTER_DEPTH} calls at position ${name.position}`, name.position);
    }
    try {
      return this.callArgs(name);
    } finally {
      this.depth -= 1;
    }
  }

  private callArgs(name: Token & { kind: 'ident' }): SyntaxNode & { kind: 'call' } {
    const args: SyntaxNode[] = [];
    if (this.peek().kind === ')') return { kind: 'call', name: name.name, args, position: name.position, end: this.take().position };
    for (;;) {
      args.push(this.arg());
      const next = this.take();
      if (next.kind === ')') return { kind: 'call', name: name.name, args, position: name.position, end: next.position };
      if (next.kind !== ',') throw unexpected(next, `"," or ")" to close "${name.name}(" at position ${name.position}`);
    }
  }

  private arg(): SyntaxNode {
    const token = this.peek();
    if (token.kind === 'ident') {
      if (this.peek(1).kind === '(') return this.call();
      this.take();
      return { kind: 'name', name: token.name, position: token.position };
    }
    if (token.kind === '[') return this.array();
    return { kind: 'literal', value: this.literal(), position: token.position };
  }

  private literal(): FilterScalar {
    const token = this.take();
    if (token.kind === 'string' || token.kind === 'number' || token.kind === 'keyword') return token.value;
    throw unexpected(token, 'a value');
  }

  private array(): SyntaxNode {
    const open = this.take();
    const items: { value: FilterScalar; position: number }[] = [];
    if (this.peek().kind === ']') {
      this.take();
      return { kind: 'array', items, position: open.position };
    }
    for (;;) {
      const position = this.peek().position;
      items.push({ value: this.literal(), position });
      const next = this.take();
      if (next.kind === ']') return { kind: 'array', items, position: open.position };
      if (next.kind !== ',') throw unexpected(next, `"," or "]" to close the list at position ${open.position}`);
    }
  }
}

/** Tokenizes and parses filter text into a {@link SyntaxNode} tree; throws FilterSyntaxError with a position. */
export function parseSyntax(text: string): SyntaxNode {
  return new Parser(tokenize(text)).filter();
}
