import type { Request, RequestHandler } from 'express';
import { NotAllowedError } from '@platform/errors';
import { isCsrfTokenOf, type Authenticator, type Caller } from '@platform/gateway-identity';
import { CSRF_HEADER, sessionTokenOf } from './session-cookies';

/** Client headers that may carry credentials; they never reach a service. */
export const CLIENT_IDENTITY_HEADERS = ['x-api-key', 'authorization'] as const;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function callerOf(locals: Record<string, unknown>): Caller {
  return locals.caller as Caller;
}

/** Whether a browser says the request comes from a page of this gateway (no `Origin` sent: not a cross-site fetch). */
export function isSameOrigin(req: Request): boolean {
  if (req.headers['sec-fetch-site'] === 'cross-site') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return URL.canParse(origin) && new URL(origin).host === req.headers.host;
}

/**
 * CSRF protection for requests a browser session authenticates: an unsafe method needs this gateway's origin and
 * the session's CSRF token in `X-CSRF-Token` (double submit; another site can neither read nor forge it).
 */
function checkBrowserRequest(req: Request, sessionToken: string): void {
  if (SAFE_METHODS.has(req.method)) return;
  if (!isSameOrigin(req)) throw new NotAllowedError('Cross-site request refused');
  const sent = req.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || !isCsrfTokenOf(sessionToken, sent)) {
    throw new NotAllowedError('Missing or wrong X-CSRF-Token header: a browser session must send it on requests that change data');
  }
}

/**
 * Authenticates `X-Api-Key` (+ `X-Tenant-Id`) of a request; without a key, the browser session of its cookie
 * (CSRF-checked), which acts as the key it was made with.
 */
export async function authenticateRequest(authenticator: Authenticator, req: Request): Promise<Caller> {
  const apiKey = req.headers['x-api-key'];
  const tenant = typeof req.headers['x-tenant-id'] === 'string' ? req.headers['x-tenant-id'] : undefined;
  const sessionToken = apiKey === undefined ? sessionTokenOf(req) : undefined;
  if (sessionToken) {
    checkBrowserRequest(req, sessionToken);
    return authenticator.authenticateSession(sessionToken, tenant);
  }
  return authenticator.authenticate(typeof apiKey === 'string' ? apiKey.trim() : undefined, tenant);
}

/** The same as a middleware, keeping the caller in `res.locals.caller`. */
export function authenticate(authenticator: Authenticator): RequestHandler {
  return async (req, res, next) => {
    res.locals.caller = await authenticateRequest(authenticator, req);
    next();
  };
}
