import { isUtf8 } from 'node:buffer';
import { ValidationError } from '@platform/errors';
import { RequestBodyError } from './request-body';

/**
 * The deepest nesting of arrays and objects a JSON request body may have, in every service (the body itself is
 * level 1). LangGraph states, store items and traces nest a few dozen levels (the Python SDKs' orjson cannot even
 * write past 255); past a few thousand, JSON.stringify and other recursive code overflow the stack. A body nested
 * deeper is refused while it is parsed, before any work is done with it.
 */
export const MAX_JSON_DEPTH = 512;

/** Bytes that are not well-formed UTF-8 (400), at `offset` of the body or part named in the message. */
export class InvalidUtf8Error extends RequestBodyError {
  constructor(
    readonly what: string,
    readonly offset: number,
    byte: number,
  ) {
    super(`${what} is not valid UTF-8: byte 0x${byte.toString(16).padStart(2, '0').toUpperCase()} at offset ${offset} does not begin a well-formed UTF-8 sequence`);
  }
}

/**
 * Where the first ill-formed UTF-8 sequence begins (Unicode table 3-7: no overlong forms, surrogates or code points
 * past U+10FFFF; a sequence cut short begins at its lead byte, as Python's decoder reports it), or -1.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      else if (b === 0xed) high = 0x9f; // no UTF-16 surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      else if (b === 0xf4) high = 0x8f; // nothing past U+10FFFF
    } else return i;
    for (let k = 1; k < length; k++) {
      const c = i + k < n ? bytes[i + k] : -1;
      if (c < (k === 1 ? low : 0x80) || c > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return -1;
}

/** Throws {@link InvalidUtf8Error} naming the first bad byte unless `bytes` are well-formed UTF-8. */
export function checkUtf8(bytes: Buffer, what = 'Request body'): void {
  // The native check is fast; the offset is only looked for once it failed.
  if (isUtf8(bytes)) return;
  const offset = invalidUtf8Offset(bytes);
  throw new InvalidUtf8Error(what, offset, bytes[offset]);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The offset of the first `[` or `{` that nests past `maxDepth` in JSON text, or -1. A byte scan: strings are
 * skipped (their brackets do not count), and in UTF-8 none of these bytes occurs inside a multi-byte sequence.
 */
export function jsonDepthOverflow(bytes: Uint8Array, maxDepth = MAX_JSON_DEPTH): number {
  const n = bytes.length;
  // Each level takes a byte: a body no longer than the limit cannot pass it.
  if (n <= maxDepth) return -1;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b === QUOTE) {
      // To the closing quote: the next one not escaped by an odd run of backslashes.
      let end = bytes.indexOf(QUOTE, i + 1);
      while (end !== -1) {
        let slashes = 0;
        while (bytes[end - 1 - slashes] === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
        end = bytes.indexOf(QUOTE, end + 1);
      }
      if (end === -1) return -1; // unterminated: JSON.parse says so
      i = end;
    } else if (b === 0x5b || b === 0x7b) {
      if (++depth > maxDepth) return i;
    } else if (b === 0x5d || b === 0x7d) {
      depth--;
    }
  }
  return -1;
}

/** The JSON text's nesting checked against {@link MAX_JSON_DEPTH}; a `json_invalid` 422 at `loc` naming the limit beyond. */
export function checkJsonDepth(bytes: Uint8Array, loc: (string | number)[]): void {
  const at = jsonDepthOverflow(bytes);
  if (at !== -1) throw ValidationError.at(loc, `JSON decode error: ${tooDeepReason(at)}`, 'json_invalid');
}

/** Why JSON nested too deep is refused, naming the limit and where it was passed. */
export const tooDeepReason = (offset: number) => `arrays and objects nested deeper than ${MAX_JSON_DEPTH} levels (the limit) at byte ${offset}`;

/**
 * JSON request bytes as a value, checked as they are parsed: well-formed UTF-8 (else a 400 naming the byte offset,
 * `what` naming the body or part), nested no deeper than {@link MAX_JSON_DEPTH} and valid JSON (else FastAPI's
 * `json_invalid` 422 at `loc`).
 */
export function parseJsonBytes(bytes: Buffer, loc: (string | number)[] = ['body'], what = 'Request body'): unknown {
  checkUtf8(bytes, what);
  checkJsonDepth(bytes, loc);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw ValidationError.at(loc, `JSON decode error: ${(err as Error).message}`, 'json_invalid');
  }
}
