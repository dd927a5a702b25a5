import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isUuid } from '@platform/ids';

/** `state` = `<auth_id>.<nonce>`: the flow is found by its id, and authenticated by the nonce (only its hash is kept). */
export function newState(authId: string): { state: string; hash: string } {
  const nonce = randomBytes(24).toString('base64url');
  return { state: `${authId}.${nonce}`, hash: hashNonce(nonce) };
}

export function hashNonce(nonce: string): string {
  return createHash('sha256').update(nonce).digest('hex');
}

export function parseState(state: string | undefined): { authId: string; nonce: string } | undefined {
  if (!state) return undefined;
  const dot = state.indexOf('.');
  const authId = state.slice(0, dot);
  const nonce = state.slice(dot + 1);
  return dot > 0 && isUuid(authId) && nonce ? { authId: authId.toLowerCase(), nonce } : undefined;
}

export function nonceMatches(nonce: string, hash: string): boolean {
  const given = Buffer.from(hashNonce(nonce));
  const expected = Buffer.from(hash);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** PKCE (RFC 7636): a verifier and its challenge for the method (`S256`, or `plain`). */
export function pkcePair(method: string): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}
