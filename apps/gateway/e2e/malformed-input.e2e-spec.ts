import { randomUUID } from 'node:crypto';
import { errorAnswerFault } from '@platform/testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';

// The body fields each group of routes reads, each given every bad value in turn.
const ADMIN = ['description', 'workspace_id', 'role', 'name', 'display_name'];
const DEPLOYMENT = ['name', 'source', 'source_config', 'source_revision_config', 'secrets', 'image_uri', 'repo_url', 'repo_ref', 'deployment_type', 'resource_spec', 'listener_config', 'langgraph_config_path'];
const AUTH = ['provider_id', 'name', 'client_id', 'client_secret', 'auth_url', 'token_url', 'uses_pkce', 'provider', 'scopes', 'user_id'];
const TRACE = ['id', 'name', 'run_type', 'inputs', 'outputs', 'extra', 'tags', 'events', 'error', 'start_time', 'end_time', 'trace_id', 'dotted_order', 'parent_run_id', 'session_id', 'session_name', 'post', 'patch'];
const RUN_QUERY = ['session', 'filter', 'trace_filter', 'tree_filter', 'is_root', 'select', 'limit', 'cursor', 'start_time', 'order', 'id', 'trace', 'run_type', 'query'];
const RUN_QUERY_V2 = ['project_ids', 'project_id', 'min_start_time', 'max_start_time', 'filter', 'trace_filter', 'tree_filter', 'ids', 'trace_ids', 'run_type', 'selects', 'page_size', 'cursor', 'ai_search'];
const SESSION = ['name', 'description', 'extra', 'start_time', 'end_time', 'id'];
const EXPORT = ['bulk_export_destination_id', 'session_id', 'start_time', 'end_time', 'filter', 'export_fields', 'format_version', 'compression', 'interval_hours', 'status'];
const DESTINATION = ['destination_type', 'display_name', 'config', 'credentials'];

// Every route of the gateway's own API and of the services behind it (control plane, tracing, export), as a client
// calls them, with the fields its body reads. The agent server's operations are swept from its OpenAPI document
// by its own malformed-input spec.
const ROUTES: [string, string, string[]?][] = [
  ['GET', '/api/v1/api-keys'], ['POST', '/api/v1/api-keys', ADMIN], ['DELETE', '/api/v1/api-keys/{id}'],
  ['GET', '/api/v1/workspaces'], ['POST', '/api/v1/workspaces', ADMIN],
  ['GET', '/v2/deployments'], ['POST', '/v2/deployments', DEPLOYMENT], ['GET', '/v2/deployments/{id}'], ['PATCH', '/v2/deployments/{id}', DEPLOYMENT],
  ['DELETE', '/v2/deployments/{id}'], ['GET', '/v2/deployments/{id}/revisions'], ['GET', '/v2/deployments/{id}/revisions/{id2}'],
  ['POST', '/v2/deployments/{id}/revisions/{id2}/interrupt'], ['POST', '/v2/deployments/{id}/revisions/{id2}/redeploy'],
  ['GET', '/v2/auth/providers'], ['POST', '/v2/auth/providers', AUTH], ['GET', '/v2/auth/providers/{id}'], ['PATCH', '/v2/auth/providers/{id}', AUTH],
  ['DELETE', '/v2/auth/providers/{id}'], ['POST', '/v2/auth/authenticate', AUTH], ['GET', '/v2/auth/wait/{id}'],
  ['POST', '/api/v1/runs', TRACE], ['POST', '/api/v1/runs/batch', TRACE], ['POST', '/api/v1/runs/multipart'], ['POST', '/api/v1/runs/query', RUN_QUERY],
  ['POST', '/api/v1/runs/query/validate', RUN_QUERY], ['GET', '/api/v1/runs/{id}'], ['PATCH', '/api/v1/runs/{id}', TRACE],
  ['GET', '/api/v1/sessions'], ['POST', '/api/v1/sessions', SESSION], ['GET', '/api/v1/sessions/{id}'], ['PATCH', '/api/v1/sessions/{id}', SESSION],
  ['DELETE', '/api/v1/sessions/{id}'], ['GET', '/api/v1/info'],
  ['POST', '/api/v2/runs/query', RUN_QUERY_V2], ['GET', '/api/v2/runs/{id}'], ['POST', '/api/v2/traces/query', RUN_QUERY_V2], ['GET', '/api/v2/traces/{id}/runs'],
  ['GET', '/api/v1/public/download'],
  ['GET', '/api/v1/bulk-exports'], ['POST', '/api/v1/bulk-exports', EXPORT], ['GET', '/api/v1/bulk-exports/{id}'], ['PATCH', '/api/v1/bulk-exports/{id}', EXPORT],
  ['GET', '/api/v1/bulk-exports/{id}/runs'], ['GET', '/api/v1/bulk-exports/{id}/runs/{id2}'], ['GET', '/api/v1/bulk-exports/runs'],
  ['GET', '/api/v1/bulk-exports/destinations'], ['POST', '/api/v1/bulk-exports/destinations', DESTINATION],
  ['GET', '/api/v1/bulk-exports/destinations/{id}'], ['PATCH', '/api/v1/bulk-exports/destinations/{id}', DESTINATION],
];
const BAD_VALUES: unknown[] = [null, 'x', -1, [], {}, '\u0000', 'a\ud800', { k: 'v\u0000' }, '9999-12-31T23:59:59Z'];
const RAW_BODIES: [string, string][] = [
  ['{', 'application/json'], ['[]', 'application/json'], ['null', 'application/json'], ['"text"', 'application/json'],
  ['{"a": 1}', 'text/plain'], ['--x\r\n', 'multipart/form-data; boundary=x'], ['garbage', 'multipart/form-data'],
];
const QUERY = ['limit', 'offset', 'name', 'name_contains', 'status', 'id', 'upsert', 'cursor', 'project_id', 'selects', 'jwt'];
// Path segments sent as they are (not encoded again): percent-escapes that are not UTF-8.
const RAW_IDS = ['%ff%fe', '%ff', '%E0%A4%A', '%'];
// Bodies whose Content-Encoding does not hold: not brotli, not gzip, truncated.
const ENCODED_BODIES: [string, string][] = [['br', '{"a": 1}'], ['gzip', 'garbage'], ['deflate', '\u0000'], ['zstd', '{}']];

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

  async function fault(method: string, path: string, body?: string, contentType = 'application/json', encoding?: string): Promise<string | undefined> {
    const response = await fetch(`${platform.gatewayUrl}${path}`, {
      method,
      headers: { 'x-api-key': platform.adminKey, ...(body === undefined ? {} : { 'content-type': contentType }), ...(encoding ? { 'content-encoding': encoding } : {}) },
      body,
    });
    const text = await response.text();
    const problem = errorAnswerFault(response.status, text);
    return problem && `${problem}: ${method} ${path} ${encoding ?? ''} ${body?.slice(0, 100) ?? ''} -> ${response.status} ${text.slice(0, 300)}`;
  }

  it('never answers a client’s mistake with a 5xx, and always with a detail', async () => {
    const requests: Parameters<typeof fault>[] = [];
    for (const [method, template, fields = []] of ROUTES) {
      const path = (id: string = randomUUID(), id2: string = randomUUID()) => template.replace('{id}', encodeURIComponent(id)).replace('{id2}', encodeURIComponent(id2));
      const emptyBody = method === 'POST' || method === 'PATCH' ? '{}' : undefined;
      if (template.includes('{id')) for (const id of ['not-a-uuid', '\u0000', '-1']) requests.push([method, path(id, id), emptyBody]);
      if (template.includes('{id')) for (const raw of RAW_IDS) requests.push([method, template.replace('{id}', raw).replace('{id2}', raw), emptyBody]);
      for (const name of QUERY) for (const value of ['\u0000', 'abc', '-1', '1e309']) requests.push([method, `${path()}?${name}=${encodeURIComponent(value)}`, emptyBody]);
      if (emptyBody === undefined) continue;
      for (const [raw, contentType] of RAW_BODIES) requests.push([method, path(), raw, contentType]);
      for (const [encoding, raw] of ENCODED_BODIES) requests.push([method, path(), raw, 'application/json', encoding]);
      if (template.includes('/multipart')) for (const [encoding, raw] of ENCODED_BODIES) requests.push([method, path(), raw, 'multipart/form-data; boundary=x', encoding]);
      for (const field of fields) for (const value of BAD_VALUES) requests.push([method, path(), JSON.stringify({ [field]: value })]);
    }
    // A few clients at once, as a gateway sees them (and in a fraction of the time one after another takes).
    const faults: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < requests.length) {
          const problem = await fault(...requests[next++]!);
          if (problem) faults.push(problem);
        }
      }),
    );
    expect(requests.length).toBeGreaterThan(2_000);
    expect(faults).toEqual([]);
  });
});
