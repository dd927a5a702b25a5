import { TRUSTED_HEADER_NAMES } from '@platform/identity';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
// Interrupt ids (a hash of the task's namespace) and other 32-digit hex ids.
const HEX32 = /\b[0-9a-f]{32}\b/g;
// The TypeScript compiler names a symbol-keyed property after its internal symbol id (`__@toStringTag@1440`), a
// counter that depends on how many symbols the program had made: the same property, numbered per compilation.
const TS_SYMBOL_KEY = /^__@(\w+)@\d+$/;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})/g;
// Headers only our gateway sends (the signed identity and the request id): never part of what a client sees.
const GATEWAY_HEADERS = new Set(['x-request-id', ...TRUSTED_HEADER_NAMES]);

export interface NormalizeOptions {
  /** ids the script created, by the names it gave them (`<thread:basic>`). */
  names: ReadonlyMap<string, string>;
  /** The server's own URL, written `<server>`. */
  serverUrl: string;
}

function normalizeString(value: string, options: NormalizeOptions): string {
  const host = new URL(options.serverUrl).host;
  return value
    .split(options.serverUrl)
    .join('<server>')
    .split(host)
    .join('<host>')
    .replace(UUID, (id) => options.names.get(id.toLowerCase()) ?? '<uuid>')
    .replace(HEX32, '<hex>')
    .replace(ISO_TIME, '<time>');
}

/**
 * A value with what legitimately differs between two servers written the same way: ids (by the script's names
 * where it kept them, else `<uuid>`), timestamps, the server's URL; object keys sorted (key order is not part of the
 * wire contract); the gateway's own headers (copied into a run's `configurable` by a server that copies `x-*`
 * headers) dropped.
 */
export function normalize(value: unknown, options: NormalizeOptions): unknown {
  if (typeof value === 'string') return normalizeString(value, options);
  if (Array.isArray(value)) return value.map((item) => normalize(item, options));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    if (GATEWAY_HEADERS.has(key)) continue;
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    let name = normalizeString(key, options).replace(TS_SYMBOL_KEY, '__@$1@<n>');
    // Two keys that differed only by an id stay apart.
    for (let n = 2; name in out; n++) name = `${normalizeString(key, options)}#${n}`;
    out[name] = normalize(item, options);
  }
  return out;
}
