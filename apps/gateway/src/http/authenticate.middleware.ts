import type { Request, RequestHandler } from 'express';
import type { Authenticator, Caller } from '@platform/gateway-identity';

/** Client headers that may carry credentials; they never reach a service. */
export const CLIENT_IDENTITY_HEADERS = ['x-api-key', 'authorization'] as const;

export function callerOf(locals: Record<string, unknown>): Caller {
  return locals.caller as Caller;
}

/** Authenticates `X-Api-Key` (+ `X-Tenant-Id`) of a request. */
export function authenticateRequest(authenticator: Authenticator, req: Request): Promise<Caller> {
  const apiKey = req.headers['x-api-key'];
  const tenant = req.headers['x-tenant-id'];
  return authenticator.authenticate(
    typeof apiKey === 'string' ? apiKey.trim() : undefined,
    typeof tenant === 'string' ? tenant : undefined,
  );
}

/** The same as a middleware, keeping the caller in `res.locals.caller`. */
export function authenticate(authenticator: Authenticator): RequestHandler {
  return async (req, res, next) => {
    res.locals.caller = await authenticateRequest(authenticator, req);
    next();
  };
}
