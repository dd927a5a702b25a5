import type { Express } from 'express';
import request from 'supertest';
import { IdentityRepository, openGatewayDatabase, type GatewayDatabase } from '@platform/gateway-data-access';
import { Authenticator, bootstrapIdentity, displayPrefix, generateApiKey, hashApiKey, type BootstrapResult } from '@platform/gateway-identity';
import { createHttpApp } from '@platform/http-server';
import { silentLogger } from '@platform/logging';
import { mountRoutes } from '@platform/openapi';
import { DEFAULT_WORKSPACE_LIMITS, limitsJson } from '@platform/rate-limit';
import { workspaceLimitsRoutes } from './workspace-limits.routes';

// `/api/v1/workspaces/{id}/limits` over HTTP against the real identity store on in-memory PGlite.
describe('/api/v1/workspaces/{id}/limits', () => {
  let db: GatewayDatabase;
  let store: IdentityRepository;
  let boot: BootstrapResult;
  let app: Express;
  const ws: Record<'A' | 'B' | 'C', string> = { A: '', B: '', C: '' };
  const keys: Record<string, string> = {};

  async function keyFor(organizationId: string, workspaceId: string | null, role: 'admin' | 'member'): Promise<string> {
    const key = generateApiKey('sk');
    await store.createApiKey({ organizationId, workspaceId, role, keyHash: hashApiKey(key), keyPrefix: displayPrefix(key), description: 'fixture' });
    return key;
  }

  beforeAll(async () => {
    db = await openGatewayDatabase({ dataDir: 'memory://' });
    await db.migrate();
    store = new IdentityRepository(db.prisma);
    boot = (await bootstrapIdentity(store)) as BootstrapResult;
    ws.A = boot.workspace.id;
    ws.B = (await store.createWorkspace(boot.organization.id, 'team-b')).id;
    const other = await db.prisma.organization.create({ data: { name: 'other org' } });
    ws.C = (await store.createWorkspace(other.id, 'team-c')).id;
    Object.assign(keys, {
      'org admin': boot.apiKey,
      'org member': await keyFor(boot.organization.id, null, 'member'),
      'A admin': await keyFor(boot.organization.id, ws.A, 'admin'),
      'B member': await keyFor(boot.organization.id, ws.B, 'member'),
    });
    app = createHttpApp({
      service: 'gateway',
      logger: silentLogger,
      jsonBody: false,
      routes: (a) => mountRoutes(a, workspaceLimitsRoutes(store, new Authenticator(store), DEFAULT_WORKSPACE_LIMITS)),
    }).app;
  }, 60_000);
  afterAll(() => db?.close());

  const get = (caller: string, id: string) => request(app).get(`/api/v1/workspaces/${id}/limits`).set('x-api-key', keys[caller] as string);
  const patch = (caller: string, id: string, body: unknown) =>
    request(app).patch(`/api/v1/workspaces/${id}/limits`).set('x-api-key', keys[caller] as string).send(body as object);

  it('reads the defaults until a workspace has limits of its own', async () => {
    const res = await get('org member', ws.A).expect(200);
    expect(res.body).toEqual({ workspace_id: ws.A, limits: limitsJson(DEFAULT_WORKSPACE_LIMITS), overrides: {} });
  });

  it('sets fields, keeps the ones not named, and returns a field to the default with null', async () => {
    await patch('org admin', ws.A, { requests_per_second: 5, requests_burst: 10 }).expect(200);
    const res = await patch('org admin', ws.A, { ingest_runs_per_second: 100, requests_burst: null }).expect(200);
    expect(res.body.overrides).toEqual({ requests_per_second: 5, ingest_runs_per_second: 100 });
    expect(res.body.limits).toMatchObject({ requests_per_second: 5, requests_burst: DEFAULT_WORKSPACE_LIMITS.requests.burst, ingest_runs_per_second: 100 });
    expect((await get('A admin', ws.A).expect(200)).body).toEqual(res.body);
    // Stored: what the gateway's limiter and the identity cache read.
    expect((await store.findWorkspace(ws.A))?.limits).toEqual({ requests_per_second: 5, ingest_runs_per_second: 100 });
    // Other workspaces keep the defaults.
    expect((await get('org admin', ws.B).expect(200)).body.overrides).toEqual({});
  });

  it('lets only organization admins change limits; a workspace key may not raise its own', async () => {
    await patch('org member', ws.A, { requests_per_second: 1 }).expect(403);
    await patch('A admin', ws.A, { requests_per_second: 1_000_000 }).expect(403);
  });

  it("hides workspaces the caller may not see: another organization's, another workspace than the key's", async () => {
    await get('org admin', ws.C).expect(404);
    await patch('org admin', ws.C, { requests_per_second: 1 }).expect(404);
    await get('B member', ws.A).expect(404);
    await get('org admin', '8a3c9a43-34a4-4f7a-9d0c-4e0b0c8f2f11').expect(404);
  });

  it('answers 422 for unknown fields, negative or non-numeric values and a malformed id', async () => {
    const unknown = await patch('org admin', ws.A, { requests_per_minute: 5 }).expect(422);
    expect(unknown.body.detail[0].loc).toEqual(['body', 'requests_per_minute']);
    const negative = await patch('org admin', ws.A, { requests_per_second: -1 }).expect(422);
    expect(negative.body.detail[0].loc).toEqual(['body', 'requests_per_second']);
    await patch('org admin', ws.A, { max_stored_runs: 'lots' }).expect(422);
    await get('org admin', 'not-a-uuid').expect(422);
  });
});
