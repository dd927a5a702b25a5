import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import request from 'supertest';
import { NotFoundError } from '@platform/errors';
import { IdentityRepository, openGatewayDatabase, type GatewayDatabase } from '@platform/gateway-data-access';
import { Authenticator, bootstrapIdentity, type BootstrapResult } from '@platform/gateway-identity';
import { cachedResolver } from '@platform/gateway-routing';
import { createMetrics } from '@platform/http-server';
import { createLogger } from '@platform/logging';
import { createGatewayApp } from '../app';
import { mayBeOwnPath } from './proxied-first';

const SECRET = 'proxied-first-secret-0123456789';

describe('mayBeOwnPath', () => {
  it('sends every path express could give the gateway’s own handlers to express (case-insensitive, trailing slash)', () => {
    for (const path of ['/ok', '/OK', '/ok/', '/ready?x=1', '/metrics', '/api/v1/workspaces', '/API/V1/runs', '/internal/v1/service-keys', '/v2/docs', '/v2/docs/index.css', '/V2/openapi.json']) {
      expect([path, mayBeOwnPath(path)]).toEqual([path, true]);
    }
    for (const path of ['/deployments/d1/ok', '/v2/deployments', '/api/v2/runs', '/deployments/d1/threads?x=/ok']) {
      expect([path, mayBeOwnPath(path)]).toEqual([path, false]);
    }
  });
});

describe('proxied routes before express (in-memory PGlite, the gateway app)', () => {
  let db: GatewayDatabase;
  let boot: BootstrapResult;
  let gateway: http.RequestListener;
  const lines: Record<string, unknown>[] = [];
  const metrics = createMetrics('gateway');
  const seen: { url?: string; headers: http.IncomingHttpHeaders }[] = [];
  const upstream = http.createServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ url: req.url }));
  });

  beforeAll(async () => {
    db = await openGatewayDatabase({ dataDir: 'memory://' });
    await db.migrate();
    const store = new IdentityRepository(db.prisma);
    boot = (await bootstrapIdentity(store)) as BootstrapResult;
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    gateway = createGatewayApp({
      logger: createLogger({ service: 'gateway', destination }),
      metrics,
      store,
      authenticator: new Authenticator(store),
      resolveDeployment: cachedResolver(async (deploymentId, tenantId) => {
        if (deploymentId !== 'known') throw new NotFoundError('Deployment not found');
        return { deploymentId, tenantId, upstreamUrl: url };
      }),
      upstreams: { 'control-plane': url, tracing: url, export: url },
      internalSecret: SECRET,
    });
  }, 60_000);
  afterAll(async () => {
    upstream.close();
    await db?.close();
  });

  const key = () => ({ 'x-api-key': boot.apiKey, 'x-tenant-id': boot.workspace.id });

  it('answers a proxied route (fast path) as one under /api/v1 (through express): status, headers, what the upstream gets, log line', async () => {
    lines.length = 0;
    seen.length = 0;
    const fast = await request(gateway).get('/v2/things?a=1').set(key()).set('x-request-id', 'req-fast').set('x-langgraph-user-id', 'forged').expect(200);
    const slow = await request(gateway).get('/api/v1/runs?a=1').set(key()).set('x-request-id', 'req-slow').set('x-langgraph-user-id', 'forged').expect(200);
    expect(fast.body).toEqual({ url: '/v2/things?a=1' });
    expect(slow.body).toEqual({ url: '/api/v1/runs?a=1' });
    const shape = (res: request.Response) => ({ type: res.headers['content-type'], id: res.headers['x-request-id'], powered: res.headers['x-powered-by'] });
    expect(shape(fast)).toEqual({ ...shape(slow), id: 'req-fast' });
    // The same headers either way, but the workspace's ingest limits, which only tracing (/api/v1/runs) is told.
    const sent = seen.map(({ headers }) => Object.keys(headers).filter((name) => name !== 'x-platform-ingest-limits').sort());
    expect(sent[0]).toEqual(sent[1]);
    expect([seen[0].headers['x-platform-ingest-limits'], typeof seen[1].headers['x-platform-ingest-limits']]).toEqual([undefined, 'string']);
    expect(seen[0].headers['x-api-key']).toBeUndefined();
    expect(seen[0].headers['x-request-id']).toBe('req-fast');
    expect(lines.map(({ msg, request_id, method, path, status }) => ({ msg, request_id, method, path, status }))).toEqual([
      { msg: 'request', request_id: 'req-fast', method: 'GET', path: '/v2/things?a=1', status: 200 },
      { msg: 'request', request_id: 'req-slow', method: 'GET', path: '/api/v1/runs?a=1', status: 200 },
    ]);
    const recorded = await metrics.registry.getSingleMetricAsString('http_request_duration_seconds');
    expect(recorded).toMatch(/_count\{service="gateway",method="GET",route="\/v2\/\*",status="200"\} 1/);
    expect(recorded).toMatch(/_count\{service="gateway",method="GET",route="\/api\/v1\/runs\/\*",status="200"\} 1/);
  });

  it("logs a proxied request whose upstream path is a probe's (GET /deployments/{id}/ok), not the gateway's own probes", async () => {
    lines.length = 0;
    await request(gateway).get('/deployments/known/ok').set(key()).set('x-request-id', 'req-probe').expect(200, { url: '/ok' });
    await request(gateway).get('/ok').expect(200);
    expect(lines.map(({ msg, request_id, path, status }) => ({ msg, request_id, path, status }))).toEqual([
      { msg: 'request', request_id: 'req-probe', path: '/deployments/known/ok', status: 200 },
    ]);
  });

  it('answers errors on both paths with the same {"detail"} body', async () => {
    const fast = await request(gateway).get('/v2/things').expect(401);
    const slow = await request(gateway).get('/api/v1/runs').expect(401);
    expect(fast.body).toEqual(slow.body);
    expect(fast.body.detail).toEqual(expect.any(String));
    expect(fast.headers['content-type']).toBe(slow.headers['content-type']);
    await request(gateway).get('/deployments/unknown/assistants/a1').set(key()).expect(404, { detail: 'Deployment not found' });
    await request(gateway).get('/deployments/known/assistants/a1').set(key()).expect(200, { url: '/assistants/a1' });
    await request(gateway).get('/nowhere').expect(404, { detail: 'Not Found' });
  });
});
