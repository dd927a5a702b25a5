import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import { IdentityRepository, openGatewayDatabase, type GatewayDatabase } from '@platform/gateway-data-access';
import { Authenticator, bootstrapIdentity, displayPrefix, generateApiKey, hashApiKey, type BootstrapResult } from '@platform/gateway-identity';
import { createHttpApp } from '@platform/http-server';
import { silentLogger } from '@platform/logging';
import { mountRoutes } from '@platform/openapi';
import { adminRoutes } from './admin.routes';

// The admin API over HTTP against the real identity store on in-memory PGlite.
describe('POST /api/v1/api-keys', () => {
  let db: GatewayDatabase;
  let store: IdentityRepository;
  let boot: BootstrapResult;
  let app: Express;
  const ws: Record<'A' | 'B' | 'C', string> = { A: '', B: '', C: '' };
  const keys: Record<string, string> = {};

  /** A key made straight in the store (not through the API under test). */
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
    // Another organization, with its own workspace C and admin.
    const other = await db.prisma.organization.create({ data: { name: 'other org' } });
    ws.C = (await store.createWorkspace(other.id, 'team-c')).id;
    Object.assign(keys, {
      'org admin': boot.apiKey,
      'org member': await keyFor(boot.organization.id, null, 'member'),
      'A admin': await keyFor(boot.organization.id, ws.A, 'admin'),
      'A member': await keyFor(boot.organization.id, ws.A, 'member'),
      'B admin': await keyFor(boot.organization.id, ws.B, 'admin'),
      'other org admin': await keyFor(other.id, null, 'admin'),
    });
    app = createHttpApp({
      service: 'gateway',
      logger: silentLogger,
      jsonBody: false,
      routes: (a) => mountRoutes(a, adminRoutes(store, new Authenticator(store))),
    }).app;
  }, 60_000);
  afterAll(() => db?.close());

  const create = (caller: string, body: unknown) =>
    request(app).post('/api/v1/api-keys').set('x-api-key', keys[caller] as string).send(body as object);

  it('creates an organization-wide key only when asked for by name', async () => {
    const orgWide = await create('org admin', { description: 'all', organization_wide: true }).expect(201);
    expect(orgWide.body).toMatchObject({ workspace_id: null, role: 'member', key: expect.stringMatching(/^lsv2_sk_/) });
    const bound = await create('org admin', { workspace_id: ws.B, role: 'admin' }).expect(201);
    expect(bound.body).toMatchObject({ workspace_id: ws.B, role: 'admin' });
  });

  it.each([
    ['an empty body', {}, [['body', 'workspace_id']]],
    ['a null workspace_id', { workspace_id: null }, [['body', 'workspace_id']]],
    ['only unknown fields', { scope: 'org', workspace: 'x' }, [['body', 'scope'], ['body', 'workspace']]],
    ['an unknown field beside a workspace', { workspace_id: 'WS', workspaceId: 'WS' }, [['body', 'workspaceId']]],
    ['organization_wide false', { organization_wide: false }, [['body', 'organization_wide']]],
    ['both scopes', { workspace_id: 'WS', organization_wide: true }, [['body', 'organization_wide']]],
  ])('answers 422 for %s, naming the field, and creates nothing', async (_what, body, locs) => {
    const before = (await store.listApiKeys(boot.organization.id)).length;
    const sent = JSON.parse(JSON.stringify(body).replaceAll('"WS"', JSON.stringify(ws.A))) as object;
    const res = await create('org admin', sent).expect(422);
    expect(res.body.detail.map((issue: { loc: unknown }) => issue.loc)).toEqual(expect.arrayContaining(locs));
    expect(res.body.detail.every((issue: { msg: unknown; type: unknown }) => typeof issue.msg === 'string' && typeof issue.type === 'string')).toBe(true);
    expect(await store.listApiKeys(boot.organization.id)).toHaveLength(before);
  });

  // Who may create a key for which scope: admins, for the workspaces they may act in (an organization-wide admin:
  // any of its organization's, and organization-wide keys); members never; nobody for another organization.
  const MATRIX: [string, Record<'A' | 'B' | 'C' | 'org' | 'unknown', number>][] = [
    ['org admin', { A: 201, B: 201, C: 400, org: 201, unknown: 400 }],
    ['org member', { A: 403, B: 403, C: 403, org: 403, unknown: 403 }],
    ['A admin', { A: 201, B: 403, C: 400, org: 403, unknown: 400 }],
    ['A member', { A: 403, B: 403, C: 403, org: 403, unknown: 403 }],
    ['B admin', { A: 403, B: 201, C: 400, org: 403, unknown: 400 }],
    ['other org admin', { A: 400, B: 400, C: 201, org: 201, unknown: 400 }],
  ];

  it.each(MATRIX)('%s: creates keys only where it may act', async (caller, expected) => {
    for (const [target, status] of Object.entries(expected)) {
      const scope = target === 'org' ? { organization_wide: true } : { workspace_id: target === 'unknown' ? randomUUID() : ws[target as 'A' | 'B' | 'C'] };
      const res = await create(caller, { description: `${caller} → ${target}`, ...scope });
      expect([target, res.status]).toEqual([target, status]);
      if (status !== 201) {
        expect(res.body).toEqual({ detail: expect.any(String) });
        continue;
      }
      // The new key works where it was made for, and only there.
      const made = await new Authenticator(store).authenticate(res.body.key, target === 'org' ? undefined : ws[target as 'A' | 'B' | 'C']);
      expect(made.key.workspaceId).toBe(target === 'org' ? null : ws[target as 'A' | 'B' | 'C']);
      if (target !== 'org') await expect(new Authenticator(store).authenticate(res.body.key, target === 'A' ? ws.B : ws.A)).rejects.toThrow();
    }
  });
});
