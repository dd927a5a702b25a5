import { randomUUID } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';

// Every route of the gateway's own API and of the services behind it (control plane, tracing, export), as a client
// calls them. The agent server's operations are swept from its OpenAPI document by its own malformed-input spec.
const ROUTES: [string, string][] = [
  ['GET', '/api/v1/api-keys'], ['POST', '/api/v1/api-keys'], ['DELETE', '/api/v1/api-keys/{id}'],
  ['GET', '/api/v1/workspaces'], ['POST', '/api/v1/workspaces'],
  ['GET', '/v2/deployments'], ['POST', '/v2/deployments'], ['GET', '/v2/deployments/{id}'], ['PATCH', '/v2/deployments/{id}'],
  ['DELETE', '/v2/deployments/{id}'], ['GET', '/v2/deployments/{id}/revisions'], ['GET', '/v2/deployments/{id}/revisions/{id2}'],
  ['POST', '/v2/deployments/{id}/revisions/{id2}/interrupt'], ['POST', '/v2/deployments/{id}/revisions/{id2}/redeploy'],
  ['GET', '/v2/auth/providers'], ['POST', '/v2/auth/providers'], ['GET', '/v2/auth/providers/{id}'], ['PATCH', '/v2/auth/providers/{id}'],
  ['DELETE', '/v2/auth/providers/{id}'], ['POST', '/v2/auth/authenticate'], ['GET', '/v2/auth/wait/{id}'],
  ['POST', '/api/v1/runs'], ['POST', '/api/v1/runs/batch'], ['POST', '/api/v1/runs/multipart'], ['POST', '/api/v1/runs/query'],
  ['POST', '/api/v1/runs/query/validate'], ['GET', '/api/v1/runs/{id}'], ['PATCH', '/api/v1/runs/{id}'],
  ['GET', '/api/v1/sessions'], ['POST', '/api/v1/sessions'], ['GET', '/api/v1/sessions/{id}'], ['PATCH', '/api/v1/sessions/{id}'],
  ['DELETE', '/api/v1/sessions/{id}'], ['GET', '/api/v1/info'],
  ['GET', '/api/v1/bulk-exports'], ['POST', '/api/v1/bulk-exports'], ['GET', '/api/v1/bulk-exports/{id}'], ['PATCH', '/api/v1/bulk-exports/{id}'],
  ['GET', '/api/v1/bulk-exports/{id}/runs'], ['GET', '/api/v1/bulk-exports/{id}/runs/{id2}'], ['GET', '/api/v1/bulk-exports/runs'],
  ['GET', '/api/v1/bulk-exports/destinations'], ['POST', '/api/v1/bulk-exports/destinations'],
  ['GET', '/api/v1/bulk-exports/destinations/{id}'], ['PATCH', '/api/v1/bulk-exports/destinations/{id}'],
];
// The body fields those routes read (and a few they do not), each given every bad value in turn.
const FIELDS = [
  'name', 'display_name', 'description', 'role', 'workspace_id', 'id', 'ids', 'status', 'limit', 'offset', 'cursor', 'query', 'filter', 'trace_filter',
  'source', 'source_config', 'source_revision_config', 'secrets', 'repo_url', 'repo_ref', 'image_uri', 'deployment_type', 'resource_spec',
  'listener_config', 'langgraph_config_path', 'provider', 'provider_id', 'client_id', 'scope', 'session_id', 'session_name', 'trace_id',
  'parent_run_id', 'dotted_order', 'run_type', 'inputs', 'outputs', 'extra', 'tags', 'events', 'error', 'start_time', 'end_time', 'post', 'patch',
  'select', 'is_root', 'bulk_export_destination_id', 'interval_hours', 'format_version', 'compression', 'export_fields', 'destination_type',
  'bucket_name', 'prefix', 'region', 'endpoint_url', 'credentials', 'include_bucket_in_prefix', 'upsert',
];
const BAD_VALUES: unknown[] = [null, 'x', -1, [], {}, '\u0000', 'a\ud800', { k: 'v\u0000' }, '9999-12-31T23:59:59Z'];
const RAW_BODIES: [string, string][] = [
  ['{', 'application/json'], ['[]', 'application/json'], ['null', 'application/json'], ['"text"', 'application/json'],
  ['{"a": 1}', 'text/plain'], ['--x\r\n', 'multipart/form-data; boundary=x'], ['garbage', 'multipart/form-data'],
];
const QUERY = ['limit', 'offset', 'name', 'name_contains', 'status', 'id', 'upsert', 'cursor'];

/**
 * Malformed path parameters, query parameters and bodies through the gateway, with the admin key, against the
 * platform on its databases: a client's mistake is never a 5xx, and every error is `{"detail": ...}`,
 * FastAPI-shaped when it is a 422.
 */
describe('malformed input through the gateway (all services in-process)', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform?.stop());

  async function fault(method: string, path: string, body?: string, contentType = 'application/json'): Promise<string | undefined> {
    const response = await fetch(`${platform.gatewayUrl}${path}`, {
      method,
      headers: { 'x-api-key': platform.adminKey, ...(body === undefined ? {} : { 'content-type': contentType }) },
      body,
    });
    const text = await response.text();
    const what = `${method} ${path} ${body?.slice(0, 100) ?? ''} -> ${response.status} ${text.slice(0, 300)}`;
    if (response.status >= 500) return what;
    if (response.status < 400) return undefined;
    let detail: unknown;
    try {
      detail = (JSON.parse(text) as { detail?: unknown }).detail;
    } catch {
      return `not JSON: ${what}`;
    }
    if (detail === undefined) return `no detail: ${what}`;
    const fastApi = (issue: { loc?: unknown; msg?: unknown; type?: unknown }) => Array.isArray(issue.loc) && typeof issue.msg === 'string' && typeof issue.type === 'string';
    if (response.status === 422 && !(Array.isArray(detail) && detail.every(fastApi))) return `422 not FastAPI-shaped: ${what}`;
    return undefined;
  }

  it('never answers a client’s mistake with a 5xx, and always with a detail', async () => {
    const faults: string[] = [];
    const check = async (...args: Parameters<typeof fault>) => {
      const problem = await fault(...args);
      if (problem) faults.push(problem);
    };
    for (const [method, template] of ROUTES) {
      const path = (id: string = randomUUID(), id2: string = randomUUID()) => template.replace('{id}', encodeURIComponent(id)).replace('{id2}', encodeURIComponent(id2));
      const emptyBody = method === 'POST' || method === 'PATCH' ? '{}' : undefined;
      if (template.includes('{id')) for (const id of ['not-a-uuid', '\u0000', '-1']) await check(method, path(id, id), emptyBody);
      for (const name of QUERY) for (const value of ['\u0000', 'abc', '-1', '1e309']) await check(method, `${path()}?${name}=${encodeURIComponent(value)}`, emptyBody);
      if (emptyBody === undefined) continue;
      for (const [raw, contentType] of RAW_BODIES) await check(method, path(), raw, contentType);
      for (const field of FIELDS) for (const value of BAD_VALUES) await check(method, path(), JSON.stringify({ [field]: value }));
    }
    expect(faults).toEqual([]);
  });
});
