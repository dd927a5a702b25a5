import { randomUUID } from 'node:crypto';
import { deploymentKey, signIdentity } from '@platform/identity';
import { startTestPlatform, TEST_INTERNAL_SECRET, type TestPlatform } from './test-platform';

// Issue 38: a graph deployed in workspace B read the platform's secret from its environment, signed a request as
// workspace A and read A's tracing projects from tracing's own port. A deployment now holds only its own key: what
// it signs, as anyone, passes on no platform service.
describe("a deployment's key on the platform's internal ports", () => {
  let platform: TestPlatform;
  let workspaceA: string;
  let organizationA: string;
  let project: string;

  beforeAll(async () => {
    platform = await startTestPlatform();
    workspaceA = platform.workspaceId;
    organizationA = platform.gateway.bootstrap!.organization.id;
    project = `victim-${randomUUID().slice(0, 8)}`;
    const created = await fetch(`${platform.gatewayUrl}/api/v1/sessions`, {
      method: 'POST',
      headers: { 'x-api-key': platform.adminKey, 'x-tenant-id': workspaceA, 'content-type': 'application/json' },
      body: JSON.stringify({ name: project }),
    });
    expect(created.status).toBeLessThan(300);
  });
  afterAll(() => platform?.stop());

  /** As workspace A, straight to a service's port, signed with `key` (for deployment `deploymentId`, or none). */
  const asA = (key: string, deploymentId?: string) => {
    const requestId = randomUUID();
    return {
      'x-request-id': requestId,
      'content-type': 'application/json',
      ...signIdentity(key, { tenantId: workspaceA, organizationId: organizationA, subject: 'attacker' }, requestId, { deploymentId }),
    };
  };

  const targets = () => [
    { name: 'tracing', method: 'GET', url: `${platform.services.tracing.url}/api/v1/sessions` },
    { name: 'export', method: 'GET', url: `${platform.services.export.url}/api/v1/bulk-exports` },
    { name: 'control plane', method: 'GET', url: `${platform.services['control-plane'].url}/v2/deployments` },
    { name: 'gateway internal', method: 'POST', url: `${platform.gatewayUrl}/internal/v1/service-keys`, body: '{}' },
  ];

  it("answers the platform's signature (the request is well formed)", async () => {
    const tracing = await fetch(targets()[0].url, { headers: asA(TEST_INTERNAL_SECRET) });
    expect(tracing.status).toBe(200);
    expect(((await tracing.json()) as { name: string }[]).map((s) => s.name)).toContain(project);
    for (const target of targets()) {
      const res = await fetch(target.url, { method: target.method, headers: asA(TEST_INTERNAL_SECRET), body: target.body });
      expect([target.name, res.status < 300]).toEqual([target.name, true]);
    }
  });

  it("refuses a request signed with a deployment's key, whatever deployment it names", async () => {
    // The key the platform's own agent server (a deployment of workspace A's platform) was given, and another's.
    const keys = [deploymentKey(TEST_INTERNAL_SECRET, platform.agentDeploymentId), deploymentKey(TEST_INTERNAL_SECRET, randomUUID())];
    const answers: string[] = [];
    for (const key of keys) {
      for (const deploymentId of [undefined, platform.agentDeploymentId]) {
        for (const target of targets()) {
          const res = await fetch(target.url, { method: target.method, headers: asA(key, deploymentId), body: target.body });
          answers.push(`${target.name} ${res.status}`);
        }
      }
    }
    expect(answers).toEqual(Array.from({ length: 4 }, () => targets().map((t) => `${t.name} 401`)).flat());
  });
});
