import type { Request, Response } from 'express';
import type { Identity } from '@platform/identity';
import { AuthenticationError, InputError } from '@platform/errors';
import type { Logger } from '@platform/logging';

/** What the bootstrap middleware puts on every request (in `res.locals`). */
export interface RequestContext {
  requestId: string;
  logger: Logger;
  identity?: Identity;
}

export function requestContext(res: Response): RequestContext {
  return res.locals as RequestContext;
}

/** The gateway-verified caller; throws 401 where the route needs one and there is none. */
export function identityOf(res: Response): Identity {
  const identity = requestContext(res).identity;
  if (!identity) throw new AuthenticationError('Missing caller identity');
  return identity;
}

/** The caller's workspace id; a route scoped to a workspace cannot run without it. */
export function tenantOf(res: Response): string {
  const { tenantId } = identityOf(res);
  if (!tenantId) throw new InputError('X-Tenant-Id header is required');
  return tenantId;
}

export function requestIdOf(req: Request): string {
  return String(req.res?.locals.requestId ?? '');
}
