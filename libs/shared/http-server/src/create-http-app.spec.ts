import { Writable } from 'node:stream';
import request from 'supertest';
import { z } from 'zod';
import { NotFoundError } from '@platform/errors';
import { signIdentity } from '@platform/identity';
import { createLogger, silentLogger } from '@platform/logging';
import { createHttpApp } from './create-http-app';
import { identityOf, requestContext, tenantOf } from './request-context';
import { parseRequest } from './validate';

const secret = 'test-internal-secret-123';

function build(ready = true, deploymentId?: string, previousSecrets?: string[]) {
  return createHttpApp({
    service: 'svc',
    logger: silentLogger,
    readiness: { db: async () => ready },
    identity: { secret, previousSecrets, publicPaths: (p) => p === '/public', deploymentId },
    routes: (app) => {
      app.get('/public', (_req, res) => {
        res.json({ public: true });
      });
      app.get('/whoami', (_req, res) => {
        res.json({ ...identityOf(res), tenant: tenantOf(res) });
      });
      app.post('/items', (req, res) => {
        const body = parseRequest(z.object({ name: z.string(), limit: z.number().int().optional() }), req.body);
        res.status(201).json(body);
      });
      app.get('/missing', async () => {
        throw new NotFoundError('Item not found');
      });
      app.get('/boom', async () => {
        throw new Error('secret internals');
      });
    },
  }).app;
}

const signed = (requestId: string, tenantId = 'tenant-1', deploymentId?: string) =>
  ({ ...signIdentity(secret, { tenantId, organizationId: 'org-1', subject: 'key-1' }, requestId, { deploymentId }), 'x-request-id': requestId });

describe('createHttpApp', () => {
  it('serves probes without a signature', async () => {
    const app = build();
    await request(app).get('/ok').expect(200, { ok: true });
    await request(app).get('/ready').expect(200, { ready: true, checks: { db: true } });
    const metrics = await request(app).get('/metrics').expect(200);
    expect(metrics.text).toContain('http_request_duration_seconds');
    await request(build(false)).get('/ready').expect(503, { ready: false, checks: { db: false } });
  });

  it('fails /ok (liveness) only while a component says it is wedged, naming it', async () => {
    let busAlive = true;
    const app = createHttpApp({ service: 'svc', logger: silentLogger, liveness: { bus: () => busAlive, db: () => true }, routes: () => undefined }).app;
    await request(app).get('/ok').expect(200, { ok: true });
    busAlive = false;
    await request(app).get('/ok').expect(503, { ok: false, wedged: ['bus'] });
  });

  it('refuses requests without a valid gateway signature', async () => {
    const app = build();
    const res = await request(app).get('/whoami').set('x-tenant-id', 'tenant-1').expect(401);
    expect(res.body).toEqual({ detail: expect.stringContaining('gateway') });
    await request(app).get('/whoami').set({ ...signed('r1'), 'x-request-id': 'other' }).expect(401);
    await request(app).get('/public').expect(200, { public: true });
  });

  it('on a service bound to a deployment, refuses requests signed for another deployment or none, on every path', async () => {
    const bound = build(true, 'dep-a');
    await request(bound).get('/whoami').set(signed('b1', 'tenant-1', 'dep-a')).expect(200);
    for (const path of ['/whoami', '/public', '/ok', '/nowhere']) {
      await request(bound).get(path).set(signed('b2', 'tenant-1', 'dep-b')).expect(403, { detail: 'This server does not serve deployment dep-b' });
    }
    await request(bound).get('/whoami').set(signed('b3')).expect(403);
    // Unsigned probes still pass (the orchestrator's), and an unbound server takes any valid signature.
    await request(bound).get('/ok').expect(200);
    await request(build()).get('/whoami').set(signed('b4', 'tenant-1', 'dep-b')).expect(200);
  });

  it("refuses, on every path, a request signed with another deployment's key for that deployment (a miswired route)", async () => {
    const bound = build(true, 'dep-a');
    const otherKey = { ...signIdentity('key-of-dep-b-0123456789', { tenantId: 't', organizationId: 'o', subject: 's' }, 'k1', { deploymentId: 'dep-b' }), 'x-request-id': 'k1' };
    for (const path of ['/whoami', '/public', '/ok']) {
      await request(bound).get(path).set(otherKey).expect(403, { detail: 'This server does not serve deployment dep-b' });
    }
    // Signed for this deployment with a key it does not hold: not the gateway (401; public paths stay open).
    const forged = { ...signIdentity('not-the-key-0123456789', { tenantId: 't', organizationId: 'o', subject: 's' }, 'k2', { deploymentId: 'dep-a' }), 'x-request-id': 'k2' };
    await request(bound).get('/whoami').set(forged).expect(401);
    await request(bound).get('/public').set(forged).expect(200);
  });

  it('takes signatures of a former key during a rotation window, and no other', async () => {
    const rotated = build(true, 'dep-a', ['former-key-0123456789']);
    const by = (key: string, requestId: string) => ({ ...signIdentity(key, { tenantId: 't', organizationId: 'o', subject: 's' }, requestId, { deploymentId: 'dep-a' }), 'x-request-id': requestId });
    await request(rotated).get('/whoami').set(by(secret, 'r1')).expect(200);
    await request(rotated).get('/whoami').set(by('former-key-0123456789', 'r2')).expect(200);
    await request(rotated).get('/whoami').set(by('unknown-key-0123456789', 'r3')).expect(401);
    await request(build(true, 'dep-a')).get('/whoami').set(by('former-key-0123456789', 'r4')).expect(401);
  });

  it('lets a v1-only signature (a gateway of the previous release) into a bound service during a rolling upgrade', async () => {
    const v1Only: Record<string, string> = signed('b5');
    delete v1Only['x-platform-signature-v2'];
    delete v1Only['x-platform-deployment-id'];
    await request(build(true, 'dep-a')).get('/whoami').set(v1Only).expect(200);
  });

  it('passes the verified identity to routes and echoes the request id', async () => {
    const res = await request(build()).get('/whoami').set(signed('req-42')).expect(200);
    expect(res.body).toEqual({ tenantId: 'tenant-1', organizationId: 'org-1', subject: 'key-1', tenant: 'tenant-1' });
    expect(res.headers['x-request-id']).toBe('req-42');
  });

  it('makes a request id when none or an unsafe one is given', async () => {
    const res = await request(build()).get('/ok').set('x-request-id', 'bad id with spaces and {braces}').expect(200);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers 400 when a tenant-scoped route has no tenant', async () => {
    await request(build()).get('/whoami').set(signed('r2', '')).expect(400, { detail: 'X-Tenant-Id header is required' });
  });

  it('renders invalid bodies as FastAPI 422s', async () => {
    const app = build();
    const missing = await request(app).post('/items').set(signed('r3')).send({}).expect(422);
    expect(missing.body).toEqual({ detail: [{ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }] });
    const malformed = await request(app)
      .post('/items')
      .set(signed('r4'))
      .set('content-type', 'application/json')
      .send('{"name": ')
      .expect(422);
    expect(malformed.body.detail[0]).toMatchObject({ loc: ['body', 0], type: 'json_invalid' });
    await request(app).post('/items').set(signed('r5')).send({ name: 'a', limit: 2 }).expect(201, { name: 'a', limit: 2 });
  });

  it('refuses strings Postgres cannot store (U+0000, unpaired surrogates) with a 422 at their location', async () => {
    const app = build();
    const nul = await request(app).post('/items').set(signed('r6')).set('content-type', 'application/json').send('{"name": "a\\u0000b"}').expect(422);
    expect(nul.body).toEqual({ detail: [{ loc: ['body', 'name'], msg: 'String should not contain the null character (\\u0000)', type: 'value_error' }] });
    const surrogate = await request(app).post('/items').set(signed('r7')).set('content-type', 'application/json').send('{"name": "\\ud800"}').expect(422);
    expect(surrogate.body.detail[0]).toMatchObject({ loc: ['body', 'name'], type: 'value_error' });
    await request(app).post('/items').set(signed('r8')).send({ name: 'emoji 😀' }).expect(201);
  });

  it('maps domain errors and hides internal ones', async () => {
    const app = build();
    await request(app).get('/missing').set(signed('r6')).expect(404, { detail: 'Item not found' });
    await request(app).get('/boom').set(signed('r7')).expect(500, { detail: 'Internal Server Error' });
    await request(app).get('/nowhere').set(signed('r8')).expect(404, { detail: 'Not Found' });
  });
});

describe('request logging', () => {
  it('writes one access-log line naming the request id, and gives handlers a logger bound to it', async () => {
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const app = createHttpApp({
      service: 'svc',
      logger: createLogger({ service: 'svc', destination }),
      routes: (a) => {
        a.get('/quiet', (_req, res) => void res.json({}));
        a.get('/chatty', (_req, res) => {
          requestContext(res).logger.info({ step: 1 }, 'working');
          res.json({});
        });
      },
    }).app;
    await request(app).get('/quiet').set('x-request-id', 'req-quiet').expect(200);
    await request(app).get('/chatty').set('x-request-id', 'req-chatty').expect(200);
    expect(lines.map(({ msg, request_id, path, status, step }) => ({ msg, request_id, path, status, step }))).toEqual([
      { msg: 'request', request_id: 'req-quiet', path: '/quiet', status: 200, step: undefined },
      { msg: 'working', request_id: 'req-chatty', path: undefined, status: undefined, step: 1 },
      { msg: 'request', request_id: 'req-chatty', path: '/chatty', status: 200, step: undefined },
    ]);
    expect(lines.every((line) => line.service === 'svc')).toBe(true);
  });
});
