import { storableText } from '@platform/errors';

// Postgres text and jsonb cannot hold U+0000, nor a lone UTF-16 surrogate, both of which JSON (and so a client or a
// graph) can carry. JSON bound as a `$n::jsonb` parameter goes through these, which clean it only when such a
// character is present, so a stray NUL in an LLM output fails no statement. Requests are refused at the edge
// instead (`parseRequest`); this is for what the services store on their own account: traces, cached graph state.
// In JSON text they can only appear escaped, which is all the fast check looks for.
const UNSTORABLE = /\\u0000|\\ud[89a-f][0-9a-f]{2}/i;

function clean(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (!keys.some((k) => storableText(k) !== k)) return value;
  return Object.fromEntries(keys.map((k) => [storableText(k), (value as Record<string, unknown>)[k]]));
}

/** JSON text Postgres can store: `json` itself, or, when it holds U+0000 or a lone surrogate, a cleaned copy. */
export function storableJsonText(json: string): string {
  return UNSTORABLE.test(json) ? JSON.stringify(JSON.parse(json), clean) : json;
}

/** A value as the text of a `$n::jsonb` parameter, storable by Postgres (NULs dropped, lone surrogates → U+FFFD). */
export function storableJson(value: unknown): string {
  const json = JSON.stringify(value);
  return UNSTORABLE.test(json) ? JSON.stringify(value, clean) : json;
}
