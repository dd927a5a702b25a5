import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { BrowserSession, NewBrowserSession } from '@platform/gateway-data-access';

export type { BrowserSession, NewBrowserSession } from '@platform/gateway-data-access';

/** Persistence of browser sessions (part of the identity store). */
export interface BrowserSessionStore {
  createBrowserSession(session: NewBrowserSession, now: Date): Promise<BrowserSession>;
  findBrowserSession(tokenHash: string): Promise<BrowserSession | null>;
  setBrowserSessionWorkspace(id: string, workspaceId: string): Promise<void>;
  revokeBrowserSession(id: string, at: Date): Promise<void>;
}

/** A new session token: 256 random bits, the cookie's value. */
export function generateSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(`session:${token}`, 'utf8').digest('hex');
}

/**
 * The session's CSRF token, derived from its secret token: the page reads it (from the sign-in answer or the
 * readable CSRF cookie) and sends it back in `X-CSRF-Token` on unsafe requests; another site can do neither.
 */
export function csrfTokenOf(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`, 'utf8').digest('base64url');
}

export function isCsrfTokenOf(sessionToken: string, candidate: string): boolean {
  const expected = Buffer.from(csrfTokenOf(sessionToken));
  const given = Buffer.from(candidate);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function isLiveSession(session: BrowserSession, now: Date): boolean {
  return !session.revokedAt && session.expiresAt.getTime() > now.getTime();
}
