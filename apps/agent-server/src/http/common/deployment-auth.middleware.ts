import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { DeploymentAuthError, OPEN_ACCESS, type Access, type DeploymentAuth } from '@platform/agent-server-auth';
import { requestContext } from '@platform/http-server';

interface AccessLocals {
  access?: Access;
}

/** What the request may do under the deployment's auth (everything, without one). */
export const accessOf = (res: Response): Access => (res.locals as AccessLocals).access ?? OPEN_ACCESS;

// The request as the deployment's `authenticate` reads it (a WHATWG Request, as the reference hands it over). The
// body was parsed already; a JSON one is given again.
function fetchRequest(req: Request): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined;
  return new globalThis.Request(`${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`, {
    method: req.method,
    headers,
    body: hasBody ? JSON.stringify(req.body) : undefined,
  });
}

/** Takes a caller another part of this process authenticated already (the project's HTTP app in front). */
export interface HandedCallers {
  take(key: unknown): Access | undefined;
}

/**
 * Runs the deployment's `authenticate` on every request but the open paths (`/info`, the docs, UI assets), and keeps
 * what the caller may do for the routes (`accessOf`). What it throws answers the request (401, or the status of an
 * HTTPException). A request the project's HTTP app forwarded with its caller (`handed`) is not authenticated again.
 */
export function authenticateCaller(auth: DeploymentAuth, isOpen: (req: Request) => boolean, handed?: { callers: HandedCallers; header: string }): RequestHandler {
  return async (req, res, next) => {
    const handedOver = handed?.callers.take(req.headers[handed.header]);
    if (handedOver) {
      (res.locals as AccessLocals).access = handedOver;
      return next();
    }
    if (isOpen(req)) return next();
    try {
      (res.locals as AccessLocals).access = auth.accessFor(await auth.authenticate(fetchRequest(req)));
    } catch (err) {
      if (err instanceof DeploymentAuthError && err.cause !== undefined) {
        requestContext(res).logger.warn({ err: err.cause, path: req.path }, 'authenticate failed');
      }
      return next(err);
    }
    next();
  };
}

/** An HTTPException's headers (`WWW-Authenticate`, ...) go with the answer the error handler makes of it. */
export const deploymentAuthHeaders: ErrorRequestHandler = (err, _req, res, next) => {
  if (err instanceof DeploymentAuthError && !res.headersSent) res.set(err.headers);
  next(err);
};
