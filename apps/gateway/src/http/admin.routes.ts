import { z } from 'zod';
import { jsonBody } from '@platform/http-server';
import { route, type DeclaredRoute } from '@platform/openapi';
import {
  createApiKey,
  createWorkspace,
  listApiKeys,
  listWorkspaces,
  revokeApiKey,
  type Authenticator,
  type IdentityStore,
} from '@platform/gateway-identity';
import { apiKeyJson, workspaceJson } from './admin-json';
import { authenticate, callerOf } from './authenticate.middleware';
import { apiKeyResponse, createdApiKeyResponse, workspaceResponse } from './responses.schema';

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

/** The gateway's own admin API: workspaces and API keys of the caller's organization. */
export function adminRoutes(store: IdentityStore, authenticator: Authenticator): DeclaredRoute[] {
  // Per route, not router.use: every other /api/v1 path belongs to a proxied service and keeps its body unread.
  const before = [authenticate(authenticator), jsonBody()];
  const workspaces = { tags: ['Workspaces'], before };
  const keys = { tags: ['API keys'], before };
  return [
    route(
      { ...workspaces, method: 'get', path: '/api/v1/workspaces', summary: "The workspaces of the caller's organization", responses: { 200: { description: 'The workspaces', schema: z.array(workspaceResponse) } } },
      async (_input, _req, res) => {
        res.json((await listWorkspaces(store, callerOf(res.locals))).map(workspaceJson));
      },
    ),
    route(
      {
        ...workspaces,
        method: 'post',
        path: '/api/v1/workspaces',
        summary: 'Create a workspace (organization admins)',
        body: createWorkspaceBody,
        responses: { 201: { description: 'The workspace', schema: workspaceResponse }, 403: { description: 'Not an organization admin' } },
      },
      async ({ body }, _req, res) => {
        const workspace = await createWorkspace(store, callerOf(res.locals), (body.display_name ?? body.name) as string);
        res.status(201).json(workspaceJson(workspace));
      },
    ),
    route(
      { ...keys, method: 'get', path: '/api/v1/api-keys', summary: "The API keys of the caller's organization", responses: { 200: { description: 'The keys (never the keys themselves)', schema: z.array(apiKeyResponse) } } },
      async (_input, _req, res) => {
        res.json((await listApiKeys(store, callerOf(res.locals))).map(apiKeyJson));
      },
    ),
    route(
      {
        ...keys,
        method: 'post',
        path: '/api/v1/api-keys',
        summary: 'Create an API key for one workspace, or organization-wide',
        body: createApiKeyBody,
        responses: { 201: { description: 'The key, shown this once', schema: createdApiKeyResponse }, 403: { description: 'Not allowed to make such a key' } },
      },
      async ({ body }, _req, res) => {
        const { record, key } = await createApiKey(store, callerOf(res.locals), {
          description: body.description,
          workspaceId: body.organization_wide ? null : (body.workspace_id as string),
          role: body.role,
        });
        res.status(201).json({ ...apiKeyJson(record), key });
      },
    ),
    route(
      {
        ...keys,
        method: 'delete',
        path: '/api/v1/api-keys/:id',
        summary: 'Revoke an API key',
        params: z.object({ id: uuid }),
        responses: { 204: { description: 'Revoked' }, 404: { description: 'No such key' } },
      },
      async ({ params }, _req, res) => {
        await revokeApiKey(store, callerOf(res.locals), params.id);
        res.status(204).end();
      },
    ),
  ];
}
