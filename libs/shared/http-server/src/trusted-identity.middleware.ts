import type { RequestHandler } from 'express';
import { verifyIdentity } from '@platform/identity';
import type { RequestContext } from './request-context';

/**
 * Lets a request in only with a valid gateway signature, so a service port reached directly admits no one.
 * Paths in `publicPaths` (probes, metrics, an OAuth callback) pass without one.
 */
export function trustedIdentity(secret: string, publicPaths: (path: string) => boolean): RequestHandler {
  return (req, res, next) => {
    const context = res.locals as RequestContext;
    const result = verifyIdentity(secret, req.headers, context.requestId);
    if (result.ok) {
      context.identity = result.identity;
      return next();
    }
    if (publicPaths(req.path)) return next();
    context.logger.warn({ reason: result.reason, path: req.path }, 'request refused: no valid gateway signature');
    res.status(401).json({ detail: 'Not authenticated: requests must come through the gateway' });
  };
}
