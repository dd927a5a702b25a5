import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@langchain/langgraph-sdk';
import { MAX_JSON_DEPTH } from '@platform/http-server';
import { deploymentKey, signIdentity } from '@platform/identity';
import { RawHttpClient, requestHead } from '@platform/testing';
import { registerDeployment, startTestPlatform, TEST_INTERNAL_SECRET, type TestPlatform } from '../../../tools/dev/test-platform';

// Short slow-client limits on every service, so stalls are seen in about a second.
const IDLE_MS = 1_000;
const SLOW_CLIENT_ENV = { HTTP_HEADERS_TIMEOUT: `${IDLE_MS}ms`, HTTP_BODY_IDLE_TIMEOUT: `${IDLE_MS}ms` };
// What a loaded machine may add to a limit before the server acts on it.
const MARGIN_MS = 4_000;

/** JSON text nested `depth` levels deep, `{"v": [[...[1]...]]}` (text: JSON.stringify itself overflows at 6,000). */
const nested = (depth: number) => `{"v": ${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`;
/** A JSON object whose `field` holds `value` (JSON text), after the other fields. */
const withField = (fields: Record<string, unknown>, field: string, value: string) => `${JSON.stringify(fields).slice(0, -1)}${Object.keys(fields).length ? ', ' : ''}"${field}": ${value}}`;

/**
 * Bad input and slow clients against the whole platform on its databases, through the gateway as clients call it:
 * JSON nested past MAX_JSON_DEPTH and bytes that are not UTF-8 are refused by every service before any work (and
 * what nests less is stored and read back), and every service closes a connection whose headers or body stall.
 */
describe('bad input and slow clients, every service (platform in-process)', () => {
  let platform: TestPlatform;
  let deployment: string;

  beforeAll(async () => {
    platform = await startTestPlatform({
      gatewayEnv: SLOW_CLIENT_ENV,
      controlPlaneEnv: SLOW_CLIENT_ENV,
      tracingEnv: SLOW_CLIENT_ENV,
      exportEnv: SLOW_CLIENT_ENV,
      exportWorkerEnv: SLOW_CLIENT_ENV,
      agentServerEnv: SLOW_CLIENT_ENV,
    });
    deployment = await registerDeployment(platform, { upstreamUrl: platform.services['agent-server'].url });
  });
  afterAll(() => platform?.stop());

  const headers = () => ({ 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId, 'content-type': 'application/json' });
  const send = (method: string, path: string, body: string | Buffer) => fetch(`${platform.gatewayUrl}${path}`, { method, headers: headers(), body });
  const agent = () => new Client({ apiUrl: `${platform.gatewayUrl}/deployments/${deployment}`, apiKey: platform.adminKey, defaultHeaders: { 'X-Tenant-Id': platform.workspaceId } });

  // A route of each service that reads a JSON body, and how to put `value` (JSON text) `depth - 1` levels in it.
  const routes = (): [string, string, string, (value: string) => string][] => [
    ['agent server', 'POST', `/deployments/${deployment}/threads`, (v) => withField({}, 'metadata', v)],
    ['agent server', 'PUT', `/deployments/${deployment}/store/items`, (v) => withField({ namespace: ['e2e'], key: randomUUID() }, 'value', v)],
    ['agent server', 'POST', `/deployments/${deployment}/runs/wait`, (v) => withField({ assistant_id: 'agent' }, 'input', v)],
    ['tracing', 'POST', '/api/v1/runs', (v) => withField({ id: randomUUID(), name: 'deep', run_type: 'chain', start_time: '2024-05-01T12:00:00Z' }, 'inputs', v)],
    ['control plane', 'POST', '/v2/deployments', (v) => withField({ name: `deep-${randomUUID().slice(0, 8)}`, source: 'github' }, 'source_config', v)],
    ['export', 'POST', '/api/v1/bulk-exports/destinations', (v) => withField({ destination_type: 's3', display_name: 'deep' }, 'config', v)],
    ['gateway', 'POST', '/api/v1/api-keys', (v) => withField({}, 'description', v)],
  ];

  it('refuses JSON nested past MAX_JSON_DEPTH on every service with a 422 naming the limit, never a 5xx', async () => {
    const answers: [string, string, number, number, string | undefined, string | undefined][] = [];
    for (const [service, method, path, body] of routes()) {
      for (const depth of [MAX_JSON_DEPTH + 1, 6_000, 50_000]) {
        const res = await send(method, path, body(nested(depth - 1)));
        const answer = (await res.json()) as { detail: { type: string; msg: string }[] };
        answers.push([service, path.replace(deployment, '{id}'), depth, res.status, answer.detail?.[0]?.type, /nested deeper than (\d+) levels \(the limit\)/.exec(answer.detail?.[0]?.msg ?? '')?.[1]]);
      }
    }
    expect(answers).toEqual(answers.map(([service, path, depth]) => [service, path, depth, 422, 'json_invalid', String(MAX_JSON_DEPTH)]));
  });

  it('takes JSON nested up to the limit and reads it back as sent (agent server threads and store, tracing runs)', async () => {
    const client = agent();
    for (const depth of [MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH]) {
      const thread = await send('POST', `/deployments/${deployment}/threads`, withField({}, 'metadata', nested(depth - 1)));
      expect([depth, thread.status]).toEqual([depth, 200]);
      const { thread_id } = (await thread.json()) as { thread_id: string };
      const read = await fetch(`${platform.gatewayUrl}/deployments/${deployment}/threads/${thread_id}`, { headers: headers() });
      expect(await read.text()).toContain(`"metadata":${nested(depth - 1).replace(' ', '')}`);

      const key = randomUUID();
      const put = await send('PUT', `/deployments/${deployment}/store/items`, withField({ namespace: ['e2e'], key }, 'value', nested(depth - 1)));
      expect([depth, put.status]).toEqual([depth, 204]);
      const item = await fetch(`${platform.gatewayUrl}/deployments/${deployment}/store/items?namespace=e2e&key=${key}`, { headers: headers() });
      expect(await item.text()).toContain(`"value":${nested(depth - 1).replace(' ', '')}`);
      await expect(client.store.getItem(['e2e'], key)).resolves.toMatchObject({ key });

      const id = randomUUID();
      const run = await send('POST', '/api/v1/runs', withField({ id, name: 'deep', run_type: 'chain', start_time: '2024-05-01T12:00:00Z' }, 'inputs', nested(depth - 1)));
      expect([depth, run.status]).toEqual([depth, 202]);
      const stored = await fetch(`${platform.gatewayUrl}/api/v1/runs/${id}`, { headers: headers() });
      expect(await stored.text()).toContain(`"inputs":${nested(depth - 1).replace(' ', '')}`);
    }
  });

  it('refuses bytes that are not UTF-8 on every service with a 400 naming the offset, storing nothing', async () => {
    const answers: [string, string, number, number, string | undefined][] = [];
    for (const [service, method, path, body] of routes()) {
      for (const bad of [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]]) {
        const text = Buffer.from(body('"text"'));
        const at = text.indexOf('"text"') + 2;
        const res = await send(method, path, Buffer.concat([text.subarray(0, at), Buffer.from(bad), text.subarray(at)]));
        const { detail } = (await res.json()) as { detail: string };
        answers.push([service, path.replace(deployment, '{id}'), bad[0], res.status, /not valid UTF-8: byte 0x[0-9A-F]{2} at offset (\d+) /.exec(detail)?.[1]]);
      }
    }
    expect(answers).toEqual(answers.map(([service, path, byte]) => [service, path, byte, 400, expect.any(String) as string]));
    const offsets = answers.map((a) => Number(a[4]));
    const expected = routes().flatMap(([, , , body]) => Array(4).fill(Buffer.from(body('"text"')).indexOf('"text"') + 2));
    expect(offsets).toEqual(expected);
    const threads = await agent().threads.search({ limit: 100 });
    expect(JSON.stringify(threads)).not.toContain('\ufffd');
  });

  // Each service directly (signed as the gateway signs) and the gateway: stalled headers, then a stalled body.
  const services = () => [
    ['gateway', platform.gatewayUrl, '/api/v1/runs', { 'x-api-key': platform.adminKey }],
    // The gateway's own handling of a wait (it keeps the body to carry the wait over to another replica).
    ['gateway (runs/wait)', platform.gatewayUrl, `/deployments/${deployment}/runs/wait`, { 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId }],
    ...(['control-plane', 'tracing', 'export', 'export-worker', 'agent-server'] as const).map((name) => {
      const requestId = randomUUID();
      const identity = { tenantId: platform.workspaceId, organizationId: randomUUID(), subject: 'e2e' };
      // The Agent Server takes only its own deployment's key, as the gateway signs for it; the services the platform secret.
      const signed =
        name === 'agent-server'
          ? signIdentity(deploymentKey(TEST_INTERNAL_SECRET, platform.agentDeploymentId), identity, requestId, { deploymentId: platform.agentDeploymentId })
          : signIdentity(TEST_INTERNAL_SECRET, identity, requestId);
      return [name, platform.services[name].url, '/anything', { ...signed, 'x-request-id': requestId }] as const;
    }),
  ] as [string, string, string, Record<string, string>][];

  it('answers 408 and closes a connection whose headers stall, on every service, within the limit', async () => {
    const clients = services().map(([name, url]) => [name, new RawHttpClient(url)] as const);
    const start = Date.now();
    await Promise.all(clients.map(([, client]) => client.write('POST /api/v1/runs HTTP/1.1\r\nHost: localhost\r\nContent-Ty')));
    await Promise.all(clients.map(([, client]) => client.closedWithin(IDLE_MS + MARGIN_MS)));
    expect(clients.map(([name, client]) => [name, client.received.slice(0, 12)])).toEqual(clients.map(([name]) => [name, 'HTTP/1.1 408']));
    for (const [, client] of clients) expect(client.closedAt! - start).toBeGreaterThanOrEqual(IDLE_MS - 100);
  });

  it('answers 408 and closes a connection whose body stalls, on every service and through the gateway, within the limit', async () => {
    const clients = services().map(([name, url, path, auth]) => [name, new RawHttpClient(url), path, auth] as const);
    await Promise.all(clients.map(([, client, path, auth]) => client.write(requestHead('POST', path, { ...auth, 'content-type': 'application/json', 'content-length': 1000 }) + '{"name": "')));
    const start = Date.now();
    await Promise.all(clients.map(([, client]) => client.closedWithin(IDLE_MS + MARGIN_MS)));
    expect(clients.map(([name, client]) => [name, client.received.slice(0, 12)])).toEqual(clients.map(([name]) => [name, 'HTTP/1.1 408']));
    for (const [, client] of clients) expect(client.closedAt! - start).toBeGreaterThanOrEqual(IDLE_MS - 100);
  });

  it('never cuts a slow but steady upload through the gateway, however much longer than the idle limit it takes', async () => {
    const id = randomUUID();
    const body = JSON.stringify({ id, name: 'slow', run_type: 'chain', start_time: '2024-05-01T12:00:00Z', inputs: { text: 'x'.repeat(2_000) } });
    const client = new RawHttpClient(platform.gatewayUrl);
    await client.write(requestHead('POST', '/api/v1/runs', { 'x-api-key': platform.adminKey, 'content-type': 'application/json', 'transfer-encoding': 'chunked' }));
    const start = Date.now();
    const piece = Math.ceil(body.length / 8);
    for (let i = 0; i < body.length; i += piece) {
      const chunk = body.slice(i, i + piece);
      await client.write(`${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`);
      await sleep(IDLE_MS / 2);
    }
    await client.write('0\r\n\r\n');
    await client.receives('\r\n\r\n{}');
    expect(Date.now() - start).toBeGreaterThan(IDLE_MS * 3);
    expect(client.received).toMatch(/^HTTP\/1\.1 202 /);
    client.close();
    const stored = await fetch(`${platform.gatewayUrl}/api/v1/runs/${id}`, { headers: headers() });
    expect(stored.status).toBe(200);
  });
});
