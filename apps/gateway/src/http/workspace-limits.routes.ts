import { z } from 'zod';
import { jsonBody } from '@platform/http-server';
import { route, type DeclaredRoute } from '@platform/openapi';
import { getWorkspace, updateWorkspaceLimits, type Authenticator, type IdentityStore, type Workspace } from '@platform/gateway-identity';
import { LIMIT_FIELDS, effectiveLimits, limitsJson, type LimitField, type WorkspaceLimits } from '@platform/rate-limit';
import { authenticate, callerOf } from './authenticate.middleware';

const FIELD_DOCS: Record<LimitField, string> = {
  requests_per_second: 'Requests per second through the gateway (0: no limit)',
  requests_burst: 'Requests at once above that rate',
  ingest_runs_per_second: 'Run creates and updates ingested per second (0: no limit)',
  ingest_runs_burst: 'Run creates and updates at once above that rate',
  ingest_bytes_per_second: 'Ingest body bytes per second (0: no limit)',
  ingest_bytes_burst: 'Ingest body bytes at once above that rate',
  max_stored_runs: 'Runs the workspace may have stored (0: no quota)',
};

const fields = <T extends z.ZodType>(schema: (doc: string) => T) =>
  Object.fromEntries(LIMIT_FIELDS.map((f) => [f, schema(FIELD_DOCS[f])])) as Record<LimitField, T>;

const limitValue = z.number().finite().min(0).max(1e15);
// A number sets the field, null returns it to the default, an absent field stays as it is.
const patchBody = z.strictObject(fields((doc) => limitValue.nullable().optional().describe(`${doc}; null: the default`)));

const limitsResponse = z.object({
  workspace_id: z.string(),
  limits: z.object(fields((doc) => z.number().describe(doc))).describe('The limits that hold'),
  overrides: z.object(fields((doc) => z.number().optional().describe(doc))).describe("The workspace's own; the defaults hold for the rest"),
});

function limitsBody(workspace: Workspace, defaults: WorkspaceLimits): z.output<typeof limitsResponse> {
  return { workspace_id: workspace.id, limits: limitsJson(effectiveLimits(defaults, workspace.limits)), overrides: workspace.limits };
}

/**
 * `/api/v1/workspaces/{id}/limits`: a workspace's rate limits and quota. Anyone who sees the workspace reads them;
 * organization admins (organization-wide admin key) change them. Past them: 429 with Retry-After.
 */
export function workspaceLimitsRoutes(store: IdentityStore, authenticator: Authenticator, defaults: WorkspaceLimits): DeclaredRoute[] {
  const common = { tags: ['Workspaces'], before: [authenticate(authenticator), jsonBody()], params: z.object({ id: z.string().uuid() }) };
  return [
    route(
      {
        ...common,
        method: 'get',
        path: '/api/v1/workspaces/:id/limits',
        summary: "A workspace's rate limits and quota",
        responses: { 200: { description: 'The limits', schema: limitsResponse }, 404: { description: 'No such workspace' } },
      },
      async ({ params }, _req, res) => {
        res.json(limitsBody(await getWorkspace(store, callerOf(res.locals), params.id), defaults));
      },
    ),
    route(
      {
        ...common,
        method: 'patch',
        path: '/api/v1/workspaces/:id/limits',
        summary: "Change a workspace's rate limits and quota (organization admins; null returns a field to the default)",
        body: patchBody,
        responses: {
          200: { description: 'The limits', schema: limitsResponse },
          403: { description: 'Not an organization admin' },
          404: { description: 'No such workspace' },
        },
      },
      async ({ params, body }, _req, res) => {
        res.json(limitsBody(await updateWorkspaceLimits(store, callerOf(res.locals), params.id, body), defaults));
      },
    ),
  ];
}
