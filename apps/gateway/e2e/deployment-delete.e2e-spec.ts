import { registerDeployment, startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';

// The gateway caches where a deployment is served (DEPLOYMENT_CACHE_TTL); a DELETE through it must not leave the
// deleted deployment reachable (or answering 502 while its server stops) until that entry expires.
describe('a deleted deployment', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ gatewayEnv: { DEPLOYMENT_CACHE_TTL: '60s' } });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('answers 404 right after DELETE /v2/deployments/{id} answered 204', async () => {
    const id = await registerDeployment(platform, { upstreamUrl: platform.services['agent-server'].url });
    const headers = { 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId };
    const info = `${platform.gatewayUrl}/deployments/${id}/info`;
    expect((await fetch(info, { headers })).status).toBe(200);

    const deleted = await fetch(`${platform.gatewayUrl}/v2/deployments/${id}`, { method: 'DELETE', headers });
    expect(deleted.status).toBe(204);
    const after = await fetch(info, { headers });
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({ detail: `Deployment ${id} not found` });
  });
});
