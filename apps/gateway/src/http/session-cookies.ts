import type { Request, Response } from 'express';

/** The HttpOnly cookie holding the session token; never readable by scripts, never sent cross-site. */
export const SESSION_COOKIE = 'platform_session';
/** The readable twin holding the CSRF token (double submit): pages send it back in `X-CSRF-Token`. */
export const CSRF_COOKIE = 'platform_csrf';
export const CSRF_HEADER = 'x-csrf-token';

const OURS = new Set([SESSION_COOKIE, CSRF_COOKIE]);

function cookiePairs(header: string | undefined): Array<[string, string]> {
  if (!header) return [];
  return header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.includes('='))
    .map((part) => [part.slice(0, part.indexOf('=')).trim(), part.slice(part.indexOf('=') + 1).trim()]);
}

export function sessionTokenOf(req: Request): string | undefined {
  const pair = cookiePairs(req.headers.cookie).find(([name]) => name === SESSION_COOKIE);
  return pair?.[1] || undefined;
}

/** Removes the gateway's own cookies from a request it forwards: no service (nor a deployment's code) sees them. */
export function withoutSessionCookies(req: Request): void {
  if (!req.headers.cookie) return;
  const kept = cookiePairs(req.headers.cookie).filter(([name]) => !OURS.has(name));
  if (kept.length) req.headers.cookie = kept.map(([name, value]) => `${name}=${value}`).join('; ');
  else delete req.headers.cookie;
}

function cookie(name: string, value: string, maxAgeSeconds: number, options: { httpOnly: boolean; secure: boolean }): string {
  return [
    `${name}=${value}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'SameSite=Strict',
    ...(options.httpOnly ? ['HttpOnly'] : []),
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/** Sets (or, with `maxAgeSeconds` 0, clears) both cookies; `Secure` whenever the browser came over HTTPS. */
export function setSessionCookies(req: Request, res: Response, values: { token: string; csrfToken: string }, maxAgeSeconds: number): void {
  const secure = req.secure;
  res.append('Set-Cookie', [
    cookie(SESSION_COOKIE, values.token, maxAgeSeconds, { httpOnly: true, secure }),
    cookie(CSRF_COOKIE, values.csrfToken, maxAgeSeconds, { httpOnly: false, secure }),
  ]);
}

export function clearSessionCookies(req: Request, res: Response): void {
  setSessionCookies(req, res, { token: '', csrfToken: '' }, 0);
}
