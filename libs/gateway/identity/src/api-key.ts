import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Keys look like LangSmith's (`lsv2_sk_<32 hex>_<10 hex>`) so tools that sniff the prefix keep working. */
const KEY_PATTERN = /^lsv2_(sk|pt)_([0-9a-f]{32})_([0-9a-f]{10})$/;

export type ApiKeyKind = 'sk' | 'pt';

/** A new random API key: 128 bits of entropy plus a short checksum that catches typos before a DB lookup. */
export function generateApiKey(kind: ApiKeyKind = 'sk'): string {
  const secret = randomBytes(16).toString('hex');
  return `lsv2_${kind}_${secret}_${checksum(kind, secret)}`;
}

function checksum(kind: string, secret: string): string {
  return createHash('sha256').update(`${kind}:${secret}`).digest('hex').slice(0, 10);
}

/** Whether a string is shaped like one of our keys with a valid checksum. */
export function isWellFormedApiKey(key: string): boolean {
  const match = KEY_PATTERN.exec(key);
  if (!match) return false;
  const expected = Buffer.from(checksum(match[1], match[2]));
  return timingSafeEqual(expected, Buffer.from(match[3]));
}

/**
 * What is stored instead of the key. Keys are random 128-bit secrets, so one SHA-256 is enough (no slow hash
 * needed against guessing) and it allows an indexed lookup by hash.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The part shown in listings so users can tell keys apart: `lsv2_sk_1a2b3c…`. */
export function displayPrefix(key: string): string {
  return key.slice(0, 14);
}
