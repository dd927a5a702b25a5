import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { cachedResolver, matchRoute } from '@platform/gateway-routing';
import type { Caller } from '@platform/gateway-identity';
import { deploymentKey, verifyIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { proxyTo } from './proxy';

const SECRET = 'proxy-spec-internal-secret-0123';
const caller = {
  identity: { tenantId: '11111111-1111-4111-8111-111111111111', organizationId: 'org', subject: 'key-1' },
} as Caller;

/** An upstream that answers with the headers it received. */
async function echoServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(req.headers));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('proxy headers', () => {
  let upstream: { server: Server; url: string };
  let app: express.Express;

  beforeAll(async () => {
    upstream = await echoServer();
    const forward = proxyTo({
      upstreams: { 'control-plane': upstream.url, tracing: upstream.url, export: upstream.url },
      resolveDeployment: cachedResolver(async (deploymentId, tenantId) => ({ deploymentId, tenantId, upstreamUrl: upstream.url })),
      internalSecret: SECRET,
      proxyTimeoutMs: 0,
      retryWindowMs: 0,
      logger: silentLogger,
    });
    app = express();
    app.use((req, res, next) => {
      res.locals.requestId = 'req-1';
      res.locals.caller = caller;
      return forward(matchRoute(req.url)!, req, res, next);
    });
  });
  afterAll(() => new Promise((resolve) => upstream.server.close(resolve)));

  const send = async (path: string): Promise<IncomingHttpHeaders> =>
    (
      await request(app)
        .get(path)
        .set({ authorization: 'Bearer user-token', 'x-api-key': 'lsv2_sk_secret', 'x-auth-subject': 'forged', 'x-platform-signature': 'v1=forged' })
        .expect(200)
    ).body as IncomingHttpHeaders;

  it("keeps Authorization for a deployment's own auth, and drops the API key and forged identity", async () => {
    const headers = await send('/deployments/2b7a3a8e-4a7f-4c55-9d57-0d6f3c1c7b10/threads');
    expect(headers.authorization).toBe('Bearer user-token');
    expect(headers['x-api-key']).toBeUndefined();
    expect(headers['x-auth-subject']).toBe('key-1');
    // Signed with that deployment's key (its Agent Server holds no other) and bound to it.
    expect(verifyIdentity(deploymentKey(SECRET, '2b7a3a8e-4a7f-4c55-9d57-0d6f3c1c7b10'), headers, 'req-1')).toEqual({
      ok: true,
      identity: caller.identity,
      deploymentId: '2b7a3a8e-4a7f-4c55-9d57-0d6f3c1c7b10',
    });
    // Neither the platform's secret nor another deployment's key verifies it.
    expect(verifyIdentity(SECRET, headers, 'req-1').ok).toBe(false);
    expect(verifyIdentity(deploymentKey(SECRET, '9b1f0c77-5e2a-4c3b-8f8e-1d2c3b4a5f60'), headers, 'req-1').ok).toBe(false);
  });

  it('never hands Authorization or the API key to a platform service', async () => {
    for (const path of ['/v2/deployments', '/api/v1/runs', '/api/v1/bulk-exports']) {
      const headers = await send(path);
      expect(headers.authorization).toBeUndefined();
      expect(headers['x-api-key']).toBeUndefined();
      expect(verifyIdentity(SECRET, headers, 'req-1').ok).toBe(true);
    }
  });
});

describe('proxy streaming', () => {
  let upstream: Server;
  let gateway: Server;
  let gatewayUrl: string;
  /** Lets the upstream's stream go on to its end. */
  let finish: () => void = () => undefined;
  let received: { bytes: number; done: Promise<void> };

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      if (req.method === 'POST') {
        // Counts the upload as it streams in; answers once it has all of it.
        let bytes = 0;
        let done: () => void = () => undefined;
        received = { bytes: 0, done: new Promise((resolve) => (done = resolve)) };
        req.on('data', (chunk: Buffer) => (received.bytes = bytes += chunk.length));
        req.on('end', () => {
          done();
          res.end(JSON.stringify({ bytes }));
        });
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('event: metadata\ndata: {"run_id":"r-1"}\n\n');
      finish = () => res.end('event: end\ndata: null\n\n');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const forward = proxyTo({
      upstreams: { 'control-plane': upstreamUrl, tracing: upstreamUrl, export: upstreamUrl },
      resolveDeployment: cachedResolver(async (deploymentId, tenantId) => ({ deploymentId, tenantId, upstreamUrl })),
      internalSecret: SECRET,
      proxyTimeoutMs: 0,
      retryWindowMs: 0,
      logger: silentLogger,
    });
    const app = express();
    app.use((req, res, next) => {
      res.locals.requestId = 'req-1';
      res.locals.caller = caller;
      return forward(matchRoute(req.url)!, req, res, next);
    });
    gateway = createServer(app);
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => gateway.close(resolve));
    await new Promise((resolve) => upstream.close(resolve));
  });

  it('passes an event stream through as it comes, untouched, before the upstream ends it', async () => {
    const res = await fetch(`${gatewayUrl}/deployments/2b7a3a8e-4a7f-4c55-9d57-0d6f3c1c7b10/threads/t/runs/stream`);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('event: metadata\ndata: {"run_id":"r-1"}\n\n');
    finish();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('event: end\ndata: null\n\n');
  });

  it('streams a request body to the upstream as it is sent, without holding it', async () => {
    let push: (chunk: Uint8Array | null) => void = () => undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        push = (chunk) => (chunk ? controller.enqueue(chunk) : controller.close());
      },
    });
    const answer = fetch(`${gatewayUrl}/api/v1/runs/multipart`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    push(new Uint8Array(64 * 1024));
    // The first part reaches the upstream while the client has not finished sending.
    const deadline = Date.now() + 5_000;
    while ((received?.bytes ?? 0) < 64 * 1024 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(received.bytes).toBe(64 * 1024);
    push(new Uint8Array(1024));
    push(null);
    await received.done;
    expect(await (await answer).json()).toEqual({ bytes: 65 * 1024 });
  });
});
