import { FilterSyntaxError } from './filter-syntax.error';

export type Token =
  | { kind: 'ident'; name: string; position: number }
  | { kind: 'string'; value: string; position: number }
  | { kind: 'number'; value: number; text: string; position: number }
  | { kind: 'keyword'; value: true | false | null; text: string; position: number }
  | { kind: '(' | ')' | ',' | '[' | ']'; position: number }
  | { kind: 'end'; position: number };

const PUNCT = new Set(['(', ')', ',', '[', ']']);
const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_]/;
const NUMBER = /-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', "'": "'", '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const KEYWORDS: Record<string, true | false | null> = { true: true, false: false, null: null };

/** How a token reads in an error message. */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'end of input';
    case 'ident':
      return `"${token.name}"`;
    case 'string':
      return `string ${JSON.stringify(token.value)}`;
    case 'number':
    case 'keyword':
      return token.text;
    default:
      return `"${token.kind}"`;
  }
}

function readString(text: string, start: number): { value: string; end: number } {
  const quote = text[start];
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === quote) return { value, end: i + 1 };
    if (ch !== '\\') {
      value += ch;
      i += 1;
      continue;
    }
    const next = text[i + 1];
    if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
      value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
      i += 6;
    } else if (next !== undefined && Object.hasOwn(ESCAPES, next)) {
      value += ESCAPES[next];
      i += 2;
    } else {
      throw new FilterSyntaxError(`Invalid escape sequence at position ${i}: use \\", \\', \\\\, \\n, \\t or \\uXXXX`, i);
    }
  }
  throw new FilterSyntaxError(`Unterminated string starting at position ${start}: expected a closing ${quote}`, start);
}

/** Splits filter text into tokens; the last one is always `end`. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (/\s/.test(ch)) {
      i += 1;
    } else if (PUNCT.has(ch)) {
      tokens.push({ kind: ch as '(' | ')' | ',' | '[' | ']', position: i });
      i += 1;
    } else if (ch === '"' || ch === "'") {
      const { value, end } = readString(text, i);
      tokens.push({ kind: 'string', value, position: i });
      i = end;
    } else if (IDENT_START.test(ch)) {
      let end = i + 1;
      while (end < text.length && IDENT_PART.test(text[end])) end += 1;
      const name = text.slice(i, end);
      tokens.push(
        Object.hasOwn(KEYWORDS, name) ? { kind: 'keyword', value: KEYWORDS[name], text: name, position: i } : { kind: 'ident', name, position: i },
      );
      i = end;
    } else if (!/[-.\d]/.test(ch)) {
      throw new FilterSyntaxError(`Unexpected character ${JSON.stringify(ch)} at position ${i}`, i);
    } else {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      // A number glued to letters ("12ab", "1.2.3") is one bad literal, not two tokens.
      if (!match || (match.index + match[0].length < text.length && /[A-Za-z0-9_.]/.test(text[match.index + match[0].length]))) {
        const bad = text.slice(i).match(/^[^\s(),[\]]+/)?.[0] ?? ch;
        throw new FilterSyntaxError(`Invalid literal ${JSON.stringify(bad)} at position ${i}`, i);
      }
      tokens.push({ kind: 'number', value: Number(match[0]), text: match[0], position: i });
      i += match[0].length;
    }
  }
  tokens.push({ kind: 'end', position: text.length });
  return tokens;
}
