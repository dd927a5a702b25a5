import type { RequestHandler } from 'express';
import { z } from 'zod';
import { AuthenticationError } from '@platform/errors';
import { jsonBody } from '@platform/http-server';
import { route, type DeclaredRoute } from '@platform/openapi';
import { verifyIdentity, type Identity } from '@platform/identity';
import { mintServiceKey, revokeServiceKey, type IdentityStore } from '@platform/gateway-identity';
import { serviceKeyResponse } from './responses.schema';

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
 * `/internal/v1`: what platform services ask of the gateway (signed with the internal secret, never an API key).
 * `service-keys` mints a workspace-bound key for a service acting on a workspace's behalf (the control plane's
 * tracing credential for a deployment).
 */
export function internalRoutes(store: IdentityStore, internalSecret: string): DeclaredRoute[] {
  const common = { tags: ['Internal'], before: [internalOnly(internalSecret), jsonBody()], public: true };
  return [
    route(
      {
        ...common,
        method: 'post',
        path: '/internal/v1/service-keys',
        summary: "Mint a workspace-bound key for a platform service (the platform's signature, not an API key)",
        body: mintBody,
        responses: { 201: { description: 'The key', schema: serviceKeyResponse }, 401: { description: 'Not signed by a platform service' } },
      },
      async ({ body }, _req, res) => {
        const { record, key } = await mintServiceKey(store, ownerOf(res.locals), body.description);
        res.status(201).json({ id: record.id, workspace_id: record.workspaceId, key });
      },
    ),
    route(
      {
        ...common,
        method: 'delete',
        path: '/internal/v1/service-keys/:id',
        summary: 'Revoke a service key',
        params: z.object({ id: z.string().uuid() }),
        responses: { 204: { description: 'Revoked' }, 401: { description: 'Not signed by a platform service' } },
      },
      async ({ params }, _req, res) => {
        await revokeServiceKey(store, ownerOf(res.locals), params.id);
        res.status(204).end();
      },
    ),
  ];
}
