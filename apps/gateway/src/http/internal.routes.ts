import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { AuthenticationError } from '@platform/errors';
import { jsonBody, parseRequest } from '@platform/http-server';
import { verifyIdentity, type Identity } from '@platform/identity';
import { mintServiceKey, revokeServiceKey, type IdentityStore } from '@platform/gateway-identity';

const mintBody = z.object({ description: z.string().max(500).default('service key') });

/** Lets in only requests signed with the internal secret (other platform services), never API keys. */
function internalOnly(secret: string): RequestHandler {
  return (req, res, next) => {
    const result = verifyIdentity(secret, req.headers, String(res.locals.requestId));
    if (!result.ok || !result.identity.tenantId || !result.identity.organizationId) {
      throw new AuthenticationError('Internal endpoint: requests must carry the platform signature');
    }
    res.locals.internalIdentity = result.identity;
    next();
  };
}

const ownerOf = (locals: Record<string, unknown>) => {
  const identity = locals.internalIdentity as Identity;
  return { organizationId: identity.organizationId, workspaceId: identity.tenantId };
};

/**
 * `/internal/v1`: what platform services ask of the gateway. `service-keys` mints a workspace-bound key for a
 * service acting on a workspace's behalf (the control plane's tracing credential for a deployment).
 */
export function internalRoutes(store: IdentityStore, internalSecret: string): Router {
  const router = Router();
  const guard = [internalOnly(internalSecret), jsonBody()];
  router.post('/service-keys', ...guard, async (req, res) => {
    const body = parseRequest(mintBody, req.body ?? {});
    const { record, key } = await mintServiceKey(store, ownerOf(res.locals), body.description);
    res.status(201).json({ id: record.id, workspace_id: record.workspaceId, key });
  });
  router.delete('/service-keys/:id', ...guard, async (req, res) => {
    const { id } = parseRequest(z.object({ id: z.string().uuid() }), req.params, 'path');
    await revokeServiceKey(store, ownerOf(res.locals), id);
    res.status(204).end();
  });
  return router;
}
