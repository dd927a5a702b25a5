import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { IdentityRepository, openGatewayDatabase, type GatewayDatabase } from '@platform/gateway-data-access';
import { Authenticator, bootstrapIdentity, createApiKey, createWorkspace, revokeApiKey, type BootstrapResult } from '@platform/gateway-identity';
import { cachedResolver } from '@platform/gateway-routing';
import { silentLogger } from '@platform/logging';
import { createGatewayApp } from '../app';
import { CSRF_COOKIE, SESSION_COOKIE } from './session-cookies';

const SECRET = 'browser-session-secret-0123456789';

/** What a service behind the gateway received: the headers of the last request. */
function echoUpstream() {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ method: req.method, url: req.url }));
  });
  return { server, seen };
}

const cookieValue = (setCookie: string[], name: string) => setCookie.find((c) => c.startsWith(`${name}=`))?.split(';')[0].slice(name.length + 1);

describe('browser sessions (in-memory PGlite, the gateway app)', () => {
  let db: GatewayDatabase;
  let store: IdentityRepository;
  let boot: BootstrapResult;
  let authenticator: Authenticator;
  let app: http.RequestListener;
  const upstream = echoUpstream();

  beforeAll(async () => {
    db = await openGatewayDatabase({ dataDir: 'memory://' });
    await db.migrate();
    store = new IdentityRepository(db.prisma);
    boot = (await bootstrapIdentity(store)) as BootstrapResult;
    authenticator = new Authenticator(store);
    await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
    app = createGatewayApp({
      logger: silentLogger,
      store,
      authenticator,
      resolveDeployment: cachedResolver(async (deploymentId, tenantId) => ({ deploymentId, tenantId, upstreamUrl: url })),
      upstreams: { 'control-plane': url, tracing: url, export: url },
      internalSecret: SECRET,
      browserSessions: { ttlMs: 60_000 },
    });
  }, 60_000);
  afterAll(async () => {
    upstream.server.close();
    await db?.close();
  });

  async function signIn(apiKey = boot.apiKey, body: Record<string, unknown> = {}) {
    const res = await request(app).post('/api/v1/browser-session').send({ api_key: apiKey, ...body }).expect(201);
    const setCookie = res.headers['set-cookie'] as unknown as string[];
    const token = cookieValue(setCookie, SESSION_COOKIE) as string;
    return { res, setCookie, cookie: `${SESSION_COOKIE}=${token}`, csrf: res.body.csrf_token as string };
  }

  it('signs in with an API key: an HttpOnly SameSite=Strict session cookie and a readable CSRF cookie', async () => {
    const { res, setCookie, csrf } = await signIn();
    const session = setCookie.find((c) => c.startsWith(`${SESSION_COOKIE}=`)) as string;
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; SameSite=Strict/);
    expect(session).toMatch(/; Path=\//);
    expect(session).toMatch(/; Max-Age=60(;|$)/);
    expect(session).not.toMatch(/Secure/);
    const csrfCookie = setCookie.find((c) => c.startsWith(`${CSRF_COOKIE}=`)) as string;
    expect(csrfCookie).not.toMatch(/HttpOnly/);
    expect(cookieValue(setCookie, CSRF_COOKIE)).toBe(csrf);
    expect(res.body).toMatchObject({
      organization_id: boot.organization.id,
      workspace_id: boot.workspace.id,
      workspaces: [{ id: boot.workspace.id, display_name: 'Default' }],
      api_key: { role: 'admin', short_key: `${boot.apiKey.slice(0, 14)}…` },
      expires_at: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toContain(boot.apiKey);
  });

  it('sets Secure on the cookies when the browser came over HTTPS', async () => {
    const res = await request(app).post('/api/v1/browser-session').set('x-forwarded-proto', 'https').send({ api_key: boot.apiKey }).expect(201);
    for (const c of res.headers['set-cookie'] as unknown as string[]) expect(c).toMatch(/; Secure/);
  });

  it('refuses a wrong key, a malformed body and a sign-in posted from another site', async () => {
    await request(app).post('/api/v1/browser-session').send({ api_key: 'lsv2_sk_nope' }).expect(401);
    const bad = await request(app).post('/api/v1/browser-session').send({ api_key: 5 }).expect(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'api_key']);
    await request(app).post('/api/v1/browser-session').set('origin', 'https://evil.example').send({ api_key: boot.apiKey }).expect(403);
  });

  it('no cookie and no key: 401; the cookie authenticates GETs to the admin API and to services', async () => {
    await request(app).get('/api/v1/workspaces').expect(401);
    await request(app).get('/api/v1/browser-session').expect(401);
    await request(app).get('/v2/deployments').expect(401);
    const { cookie } = await signIn();
    expect((await request(app).get('/api/v1/workspaces').set('cookie', cookie).expect(200)).body).toHaveLength(1);
    await request(app).get('/v2/deployments').set('cookie', `theme=dark; ${cookie}`).expect(200);
    const forwarded = upstream.seen.at(-1)!;
    // The service gets the gateway's signed identity, and never the session's cookies.
    expect(forwarded['x-tenant-id']).toBe(boot.workspace.id);
    expect(forwarded['x-auth-subject']).toBeDefined();
    expect(forwarded.cookie).toBe('theme=dark');
  });

  it('unsafe methods need the CSRF token and this origin', async () => {
    const { cookie, csrf } = await signIn();
    const post = () => request(app).post('/api/v1/workspaces').set('cookie', cookie);
    expect((await post().send({ display_name: 'nope' }).expect(403)).body.detail).toMatch(/X-CSRF-Token/);
    await post().set('x-csrf-token', 'A'.repeat(csrf.length)).send({ display_name: 'nope' }).expect(403);
    await post().set('x-csrf-token', csrf).set('origin', 'https://evil.example').send({ display_name: 'nope' }).expect(403);
    await post().set('x-csrf-token', csrf).set('sec-fetch-site', 'cross-site').send({ display_name: 'nope' }).expect(403);
    await request(app).post('/v2/deployments').set('cookie', cookie).send({}).expect(403);
    const host = `127.0.0.1`;
    await post().set('host', host).set('origin', `http://${host}`).set('x-csrf-token', csrf).send({ display_name: 'made in a browser' }).expect(201);
    await request(app).post('/v2/deployments').set('cookie', cookie).set('x-csrf-token', csrf).send({}).expect(200);
  });

  it('an API key in the request wins over the cookie (and needs no CSRF token)', async () => {
    const { cookie } = await signIn();
    await request(app).get('/api/v1/workspaces').set('cookie', cookie).set('x-api-key', 'lsv2_sk_wrong').expect(401);
    await request(app).post('/v2/deployments').set('cookie', cookie).set('x-api-key', boot.apiKey).send({}).expect(200);
  });

  it('sign-out revokes the session at once: the old cookie is refused wherever it is replayed', async () => {
    const { cookie, csrf } = await signIn();
    await request(app).delete('/api/v1/browser-session').set('cookie', cookie).expect(403);
    const out = await request(app).delete('/api/v1/browser-session').set('cookie', cookie).set('x-csrf-token', csrf).expect(204);
    for (const c of out.headers['set-cookie'] as unknown as string[]) expect(c).toMatch(/Max-Age=0/);
    await request(app).get('/api/v1/workspaces').set('cookie', cookie).expect(401);
    await request(app).get('/v2/deployments').set('cookie', cookie).expect(401);
    // Signing out of a session that already ended only clears the cookies.
    await request(app).delete('/api/v1/browser-session').set('cookie', cookie).set('x-csrf-token', csrf).expect(204);
  });

  it('a revoked key ends its sessions', async () => {
    const admin = await authenticator.authenticate(boot.apiKey, undefined);
    const { record, key } = await createApiKey(store, admin, { description: 'browser', workspaceId: boot.workspace.id, role: 'member' });
    const { cookie } = await signIn(key);
    await request(app).get('/v2/deployments').set('cookie', cookie).expect(200);
    await revokeApiKey(store, admin, record.id);
    const refused = await request(app).get('/v2/deployments').set('cookie', cookie).expect(401);
    expect(refused.body.detail).toMatch(/no longer valid/);
  });

  it('a session ends when its time is up', async () => {
    const { cookie } = await signIn();
    const later = new Authenticator(store, () => new Date(Date.now() + 61_000));
    await expect(later.authenticateSession(cookie.split('=')[1], undefined)).rejects.toThrow(/expired/);
  });

  it('the workspace picker: a key spanning several workspaces picks one, only among its own', async () => {
    const admin = await authenticator.authenticate(boot.apiKey, undefined);
    const second = await createWorkspace(store, admin, 'picker');
    const { res, cookie, csrf } = await signIn();
    expect(res.body.workspace_id).toBeNull();
    expect(res.body.workspaces.map((w: { id: string }) => w.id)).toEqual(expect.arrayContaining([boot.workspace.id, second.id]));
    // Deployments need a workspace: none is picked yet.
    expect((await request(app).get('/deployments/d1/ok').set('cookie', cookie).expect(400)).body.detail).toMatch(/X-Tenant-Id/);

    const patch = () => request(app).patch('/api/v1/browser-session').set('cookie', cookie).set('x-csrf-token', csrf);
    await patch().send({ workspace_id: '00000000-0000-4000-8000-000000000000' }).expect(403);
    await patch().send({ workspace_id: 'x' }).expect(422);
    expect((await patch().send({ workspace_id: second.id }).expect(200)).body.workspace_id).toBe(second.id);
    await request(app).get('/v2/deployments').set('cookie', cookie).expect(200);
    expect(upstream.seen.at(-1)!['x-tenant-id']).toBe(second.id);
    // X-Tenant-Id still wins for one request.
    await request(app).get('/v2/deployments').set('cookie', cookie).set('x-tenant-id', boot.workspace.id).expect(200);
    expect(upstream.seen.at(-1)!['x-tenant-id']).toBe(boot.workspace.id);
    expect((await request(app).get('/api/v1/browser-session').set('cookie', cookie).expect(200)).body.workspace_id).toBe(second.id);

    // A key bound to one workspace signs in there, and cannot pick another.
    const bound = await createApiKey(store, admin, { description: 'bound', workspaceId: second.id, role: 'member' });
    const signed = await signIn(bound.key);
    expect(signed.res.body.workspace_id).toBe(second.id);
    await request(app).patch('/api/v1/browser-session').set('cookie', signed.cookie).set('x-csrf-token', signed.csrf).send({ workspace_id: boot.workspace.id }).expect(403);
  });
});
