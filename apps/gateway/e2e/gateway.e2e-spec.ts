import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { openControlPlaneDatabase } from '@platform/control-plane-data-access';
import { signIdentity } from '@platform/identity';
import { describeWithService } from '@platform/testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';

describe('gateway (all services in-process)', () => {
  let platform: TestPlatform;
  let adminKey: string;
  let defaultWorkspace: string;
  let gw: ReturnType<typeof request>;

  beforeAll(async () => {
    // Deployments are cached briefly: the routing tests move the one deployment the Agent Server serves between workspaces.
    platform = await startTestPlatform({ gatewayEnv: { DEPLOYMENT_CACHE_TTL: '1ms' } });
    adminKey = platform.adminKey;
    defaultWorkspace = platform.workspaceId;
    gw = request(platform.gatewayUrl);
  });

  afterAll(() => platform?.stop());

  // The admin key is organization-wide and the tests add workspaces, so it names its workspace explicitly;
  // a test that means another one sets X-Tenant-Id again, which replaces this.
  const asAdmin = (req: request.Test) => req.set('X-Api-Key', adminKey).set('X-Tenant-Id', defaultWorkspace);

  describe('authentication', () => {
    it('answers 401 without a key', async () => {
      const res = await gw.get('/v2/deployments').expect(401);
      expect(res.body).toEqual({ detail: expect.stringContaining('API key') });
    });

    it('answers 401 for a malformed, an unknown and a revoked key', async () => {
      await gw.get('/v2/deployments').set('X-Api-Key', 'not-a-key').expect(401, { detail: 'Invalid API key' });
      await gw
        .get('/v2/deployments')
        .set('X-Api-Key', 'lsv2_sk_00000000000000000000000000000000_0000000000')
        .expect(401, { detail: 'Invalid API key' });
      const created = await asAdmin(gw.post('/api/v1/api-keys')).send({ description: 'short-lived', organization_wide: true }).expect(201);
      await gw.get('/api/v1/info').set('X-Api-Key', created.body.key).expect(200);
      await asAdmin(gw.delete(`/api/v1/api-keys/${created.body.id}`)).expect(204);
      await gw.get('/api/v1/info').set('X-Api-Key', created.body.key).expect(401);
    });

    it('answers 403 for a workspace the key may not use', async () => {
      const other = await asAdmin(gw.post('/api/v1/workspaces')).send({ display_name: 'Other team' }).expect(201);
      const bound = await asAdmin(gw.post('/api/v1/api-keys'))
        .send({ description: 'default only', workspace_id: defaultWorkspace })
        .expect(201);
      expect(bound.body).toMatchObject({ workspace_id: defaultWorkspace, role: 'member', key: expect.stringMatching(/^lsv2_sk_/) });
      const res = await gw.get('/v2/deployments').set('X-Api-Key', bound.body.key).set('X-Tenant-Id', other.body.id).expect(403);
      expect(res.body).toEqual({ detail: expect.stringContaining('no access') });
      await asAdmin(gw.get('/v2/deployments')).set('X-Tenant-Id', randomUUID()).expect(403);
      await asAdmin(gw.get('/v2/deployments')).set('X-Tenant-Id', 'not-a-uuid').expect(400);
      // The bound key needs no tenant header; the admin key (organization-wide) chooses either workspace.
      await gw.get('/v2/deployments').set('X-Api-Key', bound.body.key).expect(200);
      await asAdmin(gw.get('/v2/deployments')).set('X-Tenant-Id', other.body.id).expect(200);
    });

    it('keeps the admin API to admin keys', async () => {
      const member = await asAdmin(gw.post('/api/v1/api-keys')).send({ description: 'member', organization_wide: true }).expect(201);
      await gw.post('/api/v1/workspaces').set('X-Api-Key', member.body.key).send({ display_name: 'x' }).expect(403);
      await asAdmin(gw.post('/api/v1/workspaces')).send({}).expect(422);
      const keys = await asAdmin(gw.get('/api/v1/api-keys')).expect(200);
      expect(keys.body.length).toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(keys.body)).not.toContain(member.body.key);
    });
  });

  describe('proxying', () => {
    it('routes /v2 to the control plane', async () => {
      await asAdmin(gw.get('/v2/deployments')).set('X-Tenant-Id', defaultWorkspace).expect(200, { resources: [], offset: 0 });
      await asAdmin(gw.get(`/v2/deployments/${randomUUID()}`)).set('X-Tenant-Id', defaultWorkspace).expect(404);
      const invalid = await asAdmin(gw.get('/v2/deployments?limit=500')).set('X-Tenant-Id', defaultWorkspace).expect(422);
      expect(invalid.body.detail[0]).toMatchObject({ loc: ['query', 'limit'] });
    });

    it('routes /api/v1/info and /api/v1/sessions to tracing', async () => {
      const info = await asAdmin(gw.get('/api/v1/info')).expect(200);
      expect(info.body).toMatchObject({ version: expect.any(String), batch_ingest_config: expect.any(Object) });
      const created = await asAdmin(gw.post('/api/v1/sessions')).send({ name: 'e2e-project' }).expect(200);
      expect(created.body).toMatchObject({ name: 'e2e-project', tenant_id: defaultWorkspace });
      const found = await asAdmin(gw.get('/api/v1/sessions?name=e2e-project')).expect(200);
      expect(found.body.map((s: { id: string }) => s.id)).toEqual([created.body.id]);
      await asAdmin(gw.post('/api/v1/sessions')).send({ name: 'e2e-project' }).expect(409);
    });

    it('routes /api/v1/bulk-exports to export', async () => {
      await asAdmin(gw.get('/api/v1/bulk-exports')).expect(200, []);
      await asAdmin(gw.get(`/api/v1/bulk-exports/${randomUUID()}`)).expect(404);
    });

    it('relays each service’s 413 for a body over its route’s limit, refused while it streams', async () => {
      const over = (bytes: number) => JSON.stringify({ post: [{ name: 'x'.repeat(bytes) }] });
      const send = (path: string, body: string) =>
        fetch(`${platform.gatewayUrl}${path}`, {
          method: 'POST',
          headers: { 'x-api-key': adminKey, 'x-tenant-id': defaultWorkspace, 'content-type': 'application/json' },
          body,
        });
      // Over /runs/batch's 25 MiB: the body that used to be ingested (202).
      const batch = await send('/api/v1/runs/batch', over(30 * 1024 * 1024));
      expect([batch.status, await batch.json()]).toEqual([413, { detail: 'Request body is larger than 26214400 bytes' }]);
      for (const path of ['/v2/deployments', '/api/v1/bulk-exports', '/api/v1/sessions']) {
        const res = await send(path, over(2 * 1024 * 1024));
        expect([path, res.status, await res.json()]).toEqual([path, 413, { detail: 'Request body is larger than 1048576 bytes' }]);
      }
      const admin = await send('/api/v1/api-keys', over(200 * 1024));
      expect([admin.status, await admin.json()]).toEqual([413, { detail: 'Request body is larger than 102400 bytes' }]);
    });

    it('answers 404 for paths no route takes', async () => {
      await asAdmin(gw.get('/api/v2/nothing')).expect(404, { detail: 'Not Found' });
    });

    it('lets the OAuth callback through without a key', async () => {
      // No provider exists yet, so the control plane answers; the point is that the gateway did not ask for a key.
      const res = await gw.get('/v2/auth/callback/github?code=x&state=y');
      expect(res.status).not.toBe(401);
    });
  });

  describe('identity', () => {
    it('ignores identity headers sent by the client', async () => {
      const other = await asAdmin(gw.post('/api/v1/workspaces')).send({ display_name: 'Spoof target' }).expect(201);
      const bound = await asAdmin(gw.post('/api/v1/api-keys')).send({ workspace_id: defaultWorkspace }).expect(201);
      const forged = signIdentity('guessed-secret-0000000000', { tenantId: other.body.id, organizationId: 'x', subject: 'y' }, 'r');
      await gw
        .post('/api/v1/sessions')
        .set('X-Api-Key', bound.body.key)
        .set({ ...forged, 'x-organization-id': randomUUID(), 'x-auth-subject': 'root' })
        .set('X-Tenant-Id', defaultWorkspace)
        .send({ name: 'spoof-check' })
        .expect(200)
        .expect((res) => expect(res.body.tenant_id).toBe(defaultWorkspace));
      const inOther = await asAdmin(gw.get('/api/v1/sessions?name=spoof-check')).set('X-Tenant-Id', other.body.id).expect(200);
      expect(inOther.body).toEqual([]);
    });

    it('gives every request an id and echoes a safe one', async () => {
      const res = await asAdmin(gw.get('/api/v1/info')).set('x-request-id', 'trace-me-123').expect(200);
      expect(res.headers['x-request-id']).toBe('trace-me-123');
      const fresh = await asAdmin(gw.get('/api/v1/info')).expect(200);
      expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('refuses direct access to a service without the gateway signature', async () => {
      for (const name of ['control-plane', 'tracing', 'export', 'agent-server', 'export-worker'] as const) {
        const url = platform.services[name].url;
        const res = await request(url).get('/v2/deployments').set('x-tenant-id', defaultWorkspace).expect(401);
        expect(res.body).toEqual({ detail: expect.stringContaining('gateway') });
        await request(url).get('/ok').expect(200);
      }
      const forged = signIdentity('wrong-secret-000000000000', { tenantId: defaultWorkspace, organizationId: 'o', subject: 's' }, 'r1');
      await request(platform.services.tracing.url).get('/api/v1/info').set({ ...forged, 'x-request-id': 'r1' }).expect(401);
    });
  });

  // The test writes deployments straight into the control plane's database, so it needs one it can share:
  // Postgres. (Creating deployments through the API comes with the control plane's reconciler.)
  describeWithService('DATABASE_URL', 'Postgres (deployment routing e2e)')('deployments', () => {
    const postgres = () => platform.databases['control-plane'].url;

    async function insertDeployment(tenantId: string, upstreamUrl: string | null) {
      const db = await openControlPlaneDatabase({ url: postgres(), dataDir: 'memory://' });
      try {
        return await db.prisma.deployment.create({
          data: {
            tenantId,
            name: `d-${randomUUID().slice(0, 8)}`,
            source: 'external_docker',
            sourceConfig: {},
            sourceRevisionConfig: {},
            status: 'READY',
            upstreamUrl,
          },
        });
      } finally {
        await db.close();
      }
    }

    /**
     * The deployment the platform's Agent Server serves (it answers only requests signed with its own deployment's
     * key), in `tenantId`'s workspace.
     */
    async function servedDeployment(tenantId: string) {
      const db = await openControlPlaneDatabase({ url: postgres(), dataDir: 'memory://' });
      const upstreamUrl = platform.services['agent-server'].url;
      try {
        const data = { tenantId, source: 'external_docker', sourceConfig: {}, sourceRevisionConfig: {}, status: 'READY', upstreamUrl } as const;
        return await db.prisma.deployment.upsert({
          where: { id: platform.agentDeploymentId },
          update: { tenantId, upstreamUrl },
          create: { id: platform.agentDeploymentId, name: `d-${randomUUID().slice(0, 8)}`, ...data },
        });
      } finally {
        await db.close();
      }
    }

    it('resolves /deployments/{id} over gRPC to the agent server and strips the prefix', async () => {
      const deployment = await servedDeployment(defaultWorkspace);
      const res = await asAdmin(gw.get(`/deployments/${deployment.id}/info`)).set('X-Tenant-Id', defaultWorkspace).expect(200);
      expect(res.body).toMatchObject({ version: expect.any(String) });
      await asAdmin(gw.get(`/deployments/${deployment.id}/ok`)).expect(200, { ok: true });
    });

    it('tells the agent server the public prefix it is served under (A2A agent cards link back through the gateway)', async () => {
      const deployment = await servedDeployment(defaultWorkspace);
      const card = await asAdmin(gw.get(`/deployments/${deployment.id}/.well-known/agent-card.json?assistant_id=agent`))
        .set('X-Forwarded-Prefix', '/somewhere-else')
        .expect(200);
      expect(card.body.url).toMatch(new RegExp(`^${platform.gatewayUrl}/deployments/${deployment.id}/a2a/[0-9a-f-]{36}$`));
    });

    it('hides deployments of other workspaces and unknown ids', async () => {
      const other = await asAdmin(gw.post('/api/v1/workspaces')).send({ display_name: 'Deployments elsewhere' }).expect(201);
      const foreign = await servedDeployment(other.body.id);
      await asAdmin(gw.get(`/deployments/${foreign.id}/info`)).set('X-Tenant-Id', defaultWorkspace).expect(404);
      await asAdmin(gw.get(`/deployments/${foreign.id}/info`)).set('X-Tenant-Id', other.body.id).expect(200);
      const missing = await asAdmin(gw.get(`/deployments/${randomUUID()}/info`)).set('X-Tenant-Id', defaultWorkspace).expect(404);
      expect(missing.body).toEqual({ detail: expect.stringContaining('not found') });
      await asAdmin(gw.get('/deployments/not-a-uuid/info')).set('X-Tenant-Id', defaultWorkspace).expect(404);
    });

    it('answers 503 for a deployment without a running server, 502 for one that is down', async () => {
      const pending = await insertDeployment(defaultWorkspace, null);
      await asAdmin(gw.get(`/deployments/${pending.id}/info`)).set('X-Tenant-Id', defaultWorkspace).expect(503);
      const down = await insertDeployment(defaultWorkspace, 'http://127.0.0.1:9');
      const res = await asAdmin(gw.get(`/deployments/${down.id}/info`)).set('X-Tenant-Id', defaultWorkspace).expect(502);
      expect(res.body).toEqual({ detail: 'Upstream unavailable' });
    });
  });
});
