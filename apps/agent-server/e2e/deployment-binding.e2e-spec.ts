import { randomUUID } from 'node:crypto';
import type { RunningService } from '@platform/http-server';
import { registerDeployment, startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { upsertStaticDeployment } from '../../../tools/dev/static-deployment';
import { startReplica } from './agent-server.e2e.testing';

type OpenApi = { paths: Record<string, Record<string, unknown>> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

// Routes outside the OpenAPI document, and the public ones (docs, probes): refused as well.
const A2A_V1 = { 'a2a-version': '1.0' };
const EXTRA: [string, string, unknown?, Record<string, string>?][] = [
  ['GET', '/.well-known/agent-card.json?assistant_id=agent'],
  ['GET', '/.well-known/agent-card.json?assistant_id=agent', undefined, A2A_V1],
  ['POST', '/a2a/agent', { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { role: 'user', messageId: 'm1', parts: [{ kind: 'text', text: 'hi' }] } } }],
  ['POST', '/a2a/agent', { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { role: 'ROLE_USER', messageId: 'm1', parts: [{ text: 'hi' }] } } }, A2A_V1],
  ['POST', '/a2a/agent', { jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }, A2A_V1],
  ['POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }],
  ['GET', '/mcp'],
  ['DELETE', '/mcp'],
  ['GET', '/openapi.json'],
  ['GET', '/docs'],
  ['GET', '/info'],
  ['GET', '/ok'],
];

/**
 * The miswiring the deployment binding guards against: deployment B (another workspace) routed by the gateway to
 * deployment A's Agent Server, as a stale route or a hand-written row would. Every request for B that reaches A's
 * server is refused; A keeps working.
 */
describe('an Agent Server refuses requests signed for another deployment (two deployments, one server)', () => {
  let platform: TestPlatform;
  let server: RunningService;
  let deploymentA: string;
  let deploymentB: string;
  let workspaceB: string;

  const send = (deploymentId: string, tenantId: string, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${platform.gatewayUrl}/deployments/${deploymentId}${route}`, {
      method,
      headers: { 'x-api-key': platform.adminKey, 'x-tenant-id': tenantId, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    platform = await startTestPlatform();
    const name = `bound-${randomUUID().slice(0, 8)}`;
    // The deployment first (its id is the server's DEPLOYMENT_ID), then the server, then the route to it.
    deploymentA = await registerDeployment(platform, { name, upstreamUrl: 'http://127.0.0.1:9' });
    server = await startReplica(platform, { DEPLOYMENT_ID: deploymentA, MIGRATE_ON_START: 'true' });
    await registerDeployment(platform, { name, upstreamUrl: server.url });
    const other = await fetch(`${platform.gatewayUrl}/api/v1/workspaces`, {
      method: 'POST',
      headers: { 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId, 'content-type': 'application/json' },
      body: JSON.stringify({ display_name: `other-${randomUUID().slice(0, 8)}` }),
    });
    workspaceB = ((await other.json()) as { id: string }).id;
    deploymentB = await upsertStaticDeployment(platform.controlPlane, { tenantId: workspaceB, name: `miswired-${randomUUID().slice(0, 8)}`, upstreamUrl: server.url });
  });

  afterAll(async () => {
    await server?.stop();
    await platform?.stop();
  });

  it('serves its own deployment', async () => {
    const search = await send(deploymentA, platform.workspaceId, 'POST', '/assistants/search', { graph_id: 'agent' });
    expect(search.status).toBe(200);
    expect(((await search.json()) as unknown[]).length).toBeGreaterThan(0);
    expect((await send(deploymentA, platform.workspaceId, 'GET', '/info')).status).toBe(200);
    const tasks = await send(deploymentA, platform.workspaceId, 'POST', '/a2a/agent', { jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }, A2A_V1);
    expect(tasks.status).toBe(200);
    expect(((await tasks.json()) as { result?: { tasks?: unknown[] } }).result?.tasks).toEqual(expect.any(Array));
  });

  it('answers 403 on every route, A2A and MCP included, for the deployment it does not serve', async () => {
    const doc = (await (await send(deploymentA, platform.workspaceId, 'GET', '/openapi.json')).json()) as OpenApi;
    const requests: [string, string, unknown?, Record<string, string>?][] = [...EXTRA];
    for (const [template, item] of Object.entries(doc.paths)) {
      const route = template.replace(/\{(\w+)\}/g, (_, param: string) => (param === 'assistant_id' ? 'agent' : randomUUID()));
      for (const method of Object.keys(item).filter((m) => METHODS.includes(m))) {
        requests.push([method.toUpperCase(), route, method === 'get' || method === 'delete' ? undefined : {}]);
      }
    }
    expect(requests.length).toBeGreaterThan(50);
    const answers: string[] = [];
    for (const [method, route, body, headers] of requests) {
      const res = await send(deploymentB, workspaceB, method, route, body, headers);
      const text = await res.text();
      if (res.status !== 403 || !text.includes(`does not serve deployment ${deploymentB}`)) answers.push(`${method} ${route} -> ${res.status} ${text.slice(0, 120)}`);
    }
    expect(answers).toEqual([]);
  });
});
