import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { cachedResolver, matchRoute } from '@platform/gateway-routing';
import type { Caller } from '@platform/gateway-identity';
import { verifyIdentity } from '@platform/identity';
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
      return forward(matchRoute(req.url)!)(req, res, next);
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
    // The signature binds the identity to the deployment it was forwarded to.
    expect(verifyIdentity(SECRET, headers, 'req-1')).toEqual({
      ok: true,
      identity: caller.identity,
      deploymentId: '2b7a3a8e-4a7f-4c55-9d57-0d6f3c1c7b10',
    });
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
