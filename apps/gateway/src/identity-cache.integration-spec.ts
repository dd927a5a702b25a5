import { silentLogger } from '@platform/logging';
import { createScratchPostgresDatabase, type ScratchDatabase } from '@platform/prisma';
import { loadGatewayConfig } from './config';
import { startGateway, type RunningGateway } from './service';

const adminUrl = process.env['DATABASE_URL'];
if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
// Written to stderr, not console.warn: Jest drops console output of a suite whose tests are all skipped.
if (!adminUrl) process.stderr.write('SKIPPED: gateway replicas on Postgres tests (set DATABASE_URL to run them)\n');

const start = (databaseUrl: string) =>
  startGateway(
    loadGatewayConfig({
      DATABASE_URL: databaseUrl,
      MIGRATE_ON_START: 'true',
      PORT: '0',
      INTERNAL_SECRET: 'identity-cache-secret-0123456789',
      // Nothing here is proxied: the admin API is the gateway's own, and authenticates like any proxied route.
      CONTROL_PLANE_URL: 'http://127.0.0.1:9',
      TRACING_URL: 'http://127.0.0.1:9',
      EXPORT_URL: 'http://127.0.0.1:9',
      CONTROL_PLANE_GRPC: '127.0.0.1:9',
      // Long enough that only the NOTIFY can explain a revocation taking effect within the test.
      IDENTITY_CACHE_TTL: '10m',
      LOG_LEVEL: 'silent',
    }),
    silentLogger,
  );

(adminUrl ? describe : describe.skip)('gateway replicas on one Postgres database (API-key cache)', () => {
  let scratch: ScratchDatabase;
  let a: RunningGateway;
  let b: RunningGateway;
  let adminKey: string;

  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase(adminUrl!);
    a = await start(scratch.url);
    b = await start(scratch.url);
    adminKey = a.bootstrap!.apiKey;
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await scratch?.drop();
  });

  const call = (gateway: RunningGateway, key: string, path = '/api/v1/workspaces', init: RequestInit = {}) =>
    fetch(`${gateway.url}${path}`, { ...init, headers: { 'x-api-key': key, 'content-type': 'application/json', ...init.headers } });

  it('stops a key revoked on one replica within 1 s on the other, which had it cached', async () => {
    const created = await call(a, adminKey, '/api/v1/api-keys', { method: 'POST', body: JSON.stringify({ description: 'revoke me', organization_wide: true }) });
    expect(created.status).toBe(201);
    const { id, key } = (await created.json()) as { id: string; key: string };
    // Cached on both replicas now.
    for (const gateway of [a, b, a, b]) expect((await call(gateway, key)).status).toBe(200);

    expect((await call(a, adminKey, `/api/v1/api-keys/${id}`, { method: 'DELETE' })).status).toBe(204);
    const revokedAt = Date.now();
    expect((await call(a, key)).status).toBe(401);
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 2_000) {
      status = (await call(b, key)).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
  });

  it('lets an organization-wide key without X-Tenant-Id see a workspace added on the other replica', async () => {
    const member = await call(a, adminKey, '/api/v1/api-keys', { method: 'POST', body: JSON.stringify({ description: 'member', organization_wide: true }) });
    const { key } = (await member.json()) as { key: string };
    // The only workspace is the default tenant; cache that on b.
    const before = await call(b, key, '/api/v1/workspaces');
    expect(((await before.json()) as unknown[]).length).toBe(1);
    const added = await call(a, adminKey, '/api/v1/workspaces', { method: 'POST', body: JSON.stringify({ display_name: 'second' }) });
    expect(added.status).toBe(201);
    const deadline = Date.now() + 1_000;
    let seen = 1;
    while (seen === 1 && Date.now() < deadline) {
      seen = ((await (await call(b, key, '/api/v1/workspaces')).json()) as unknown[]).length;
    }
    expect(seen).toBe(2);
  });
});
