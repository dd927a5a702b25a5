import { Router } from 'express';
import { z } from 'zod';
import { jsonBody, parseRequest } from '@platform/http-server';
import {
  createApiKey,
  createWorkspace,
  listApiKeys,
  listWorkspaces,
  revokeApiKey,
  type ApiKeyRecord,
  type Authenticator,
  type IdentityStore,
  type Workspace,
} from '@platform/gateway-identity';
import { authenticate, callerOf } from './authenticate.middleware';

const uuid = z.string().uuid();

const createWorkspaceBody = z.object({
  display_name: z.string().trim().min(1).max(200).optional(),
  name: z.string().trim().min(1).max(200).optional(),
}).refine((b) => b.display_name ?? b.name, { message: 'display_name is required', path: ['display_name'] });

const ORG_WIDE_HINT = 'a workspace id (UUID), or "organization_wide": true instead for a key valid in every workspace';

// A key is for one workspace unless an organization-wide one is asked for by name: no field (or a null, or a typo)
// ever widens a key to every workspace.
const createApiKeyBody = z
  .strictObject({
    description: z.string().max(500).default(''),
    workspace_id: z.string(ORG_WIDE_HINT).uuid().optional(),
    organization_wide: z.literal(true, 'Input should be true (omit it for a workspace key)').optional(),
    role: z.enum(['admin', 'member']).default('member'),
  })
  .superRefine((body, ctx) => {
    if (body.workspace_id !== undefined && body.organization_wide) {
      ctx.addIssue({ code: 'custom', path: ['organization_wide'], message: 'A key is for one workspace (workspace_id) or organization-wide, not both' });
    } else if (body.workspace_id === undefined && !body.organization_wide) {
      ctx.addIssue({ code: 'custom', path: ['workspace_id'], message: `Field required: ${ORG_WIDE_HINT}` });
    }
  });

function workspaceJson(w: Workspace) {
  return { id: w.id, organization_id: w.organizationId, display_name: w.name, created_at: w.createdAt.toISOString() };
}

function apiKeyJson(k: ApiKeyRecord) {
  return {
    id: k.id,
    organization_id: k.organizationId,
    workspace_id: k.workspaceId,
    short_key: `${k.keyPrefix}…`,
    description: k.description,
    role: k.role,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
  };
}

/** The gateway's own admin API: workspaces and API keys of the caller's organization. */
export function adminRoutes(store: IdentityStore, authenticator: Authenticator): Router {
  const router = Router();
  // Per route, not router.use: every other /api/v1 path belongs to a proxied service and keeps its body unread.
  const auth = [authenticate(authenticator), jsonBody()];

  router.get('/workspaces', ...auth, async (_req, res) => {
    res.json((await listWorkspaces(store, callerOf(res.locals))).map(workspaceJson));
  });
  router.post('/workspaces', ...auth, async (req, res) => {
    const body = parseRequest(createWorkspaceBody, req.body ?? {});
    const workspace = await createWorkspace(store, callerOf(res.locals), (body.display_name ?? body.name) as string);
    res.status(201).json(workspaceJson(workspace));
  });

  router.get('/api-keys', ...auth, async (_req, res) => {
    res.json((await listApiKeys(store, callerOf(res.locals))).map(apiKeyJson));
  });
  router.post('/api-keys', ...auth, async (req, res) => {
    const body = parseRequest(createApiKeyBody, req.body ?? {});
    const { record, key } = await createApiKey(store, callerOf(res.locals), {
      description: body.description,
      workspaceId: body.organization_wide ? null : (body.workspace_id as string),
      role: body.role,
    });
    res.status(201).json({ ...apiKeyJson(record), key });
  });
  router.delete('/api-keys/:id', ...auth, async (req, res) => {
    const { id } = parseRequest(z.object({ id: uuid }), req.params, 'path');
    await revokeApiKey(store, callerOf(res.locals), id);
    res.status(204).end();
  });
  return router;
}
