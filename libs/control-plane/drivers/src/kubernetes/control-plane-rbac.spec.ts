import { spawnSync } from 'node:child_process';
import path from 'node:path';
// eslint-disable-next-line @nx/enforce-module-boundaries -- test-only servers and fixtures, in a spec
import { startFakeKubernetesApi } from '@platform/control-plane-testing';
import { silentLogger } from '@platform/logging';
import { loadKubernetesClient } from './kubernetes-client';
import { KubernetesDriver } from './kubernetes-driver';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../../../../..');
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
if (!hasKubectl) process.stderr.write('SKIPPED: control-plane RBAC test (kubectl with kustomize not found)\n');

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };

// The Role the k8s overlay grants the control plane must allow every call the driver makes, and nothing it does not.
(hasKubectl ? describe : describe.skip)('control-plane RBAC (k8s/overlays/dev, rendered by kubectl kustomize)', () => {
  it('grants exactly the verbs the kubernetes driver uses, in its namespace only', async () => {
    const rendered = spawnSync('kubectl', ['kustomize', path.join(ROOT, 'k8s/overlays/dev')], { encoding: 'utf8' });
    expect(rendered.stderr).toBe('');
    const k8s = await loadKubernetesClient();
    const objects = k8s.loadAllYaml(rendered.stdout) as { kind: string; metadata: { name: string; namespace?: string }; rules?: Rule[]; spec?: any }[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    const role = objects.find((o) => o.kind === 'Role' && o.metadata.name === 'control-plane-deployer');
    expect(role?.metadata.namespace).toBe('agent-platform');
    expect(objects.some((o) => o.kind === 'ClusterRole' || o.kind === 'ClusterRoleBinding')).toBe(false);
    const binding = objects.find((o) => o.kind === 'RoleBinding' && o.metadata.name === 'control-plane-deployer') as unknown as { subjects: { name: string }[] };
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'control-plane', namespace: 'agent-platform' }]);
    const controlPlane = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'control-plane');
    expect(controlPlane?.spec.template.spec.serviceAccountName).toBe('control-plane');
    const allowed = new Set((role?.rules ?? []).flatMap((r) => r.resources.flatMap((res) => r.verbs.map((v) => `${res}:${v}`))));

    const api = await startFakeKubernetesApi();
    try {
      const driver = new KubernetesDriver({
        kubeConfig: (client) => {
          const kc = new client.KubeConfig();
          kc.loadFromOptions({
            clusters: [{ name: 'c', server: api.url, skipTLSVerify: true }],
            users: [{ name: 'u', token: api.token }],
            contexts: [{ name: 'c', cluster: 'c', user: 'u', namespace: 'agent-platform' }],
            currentContext: 'c',
          });
          return kc;
        },
        namespace: 'agent-platform',
        agentServerImage: 'agent-platform:dev',
        agentServerCommand: ['node', 'dist/apps/agent-server/main.cjs'],
        gitImage: 'alpine/git:2.47.2',
        logger: silentLogger,
        rolloutTimeoutMs: 5_000,
        pollIntervalMs: 20,
      });
      const id = '0d6c3b1a-2f4e-4a8b-9c7d-6e5f4a3b2c1d';
      const spec = {
        deploymentId: id,
        deploymentName: 'rbac',
        tenantId: id,
        revisionId: id,
        source: 'external_docker',
        imageUri: 'ghcr.io/acme/agent:1',
        env: { DATABASE_URL: 'postgres://db/x' },
        sharedDatabase: true,
        resourceSpec: { min_scale: 1, max_scale: 3 },
      };
      await driver.deploy(spec, new AbortController().signal);
      await driver.deploy({ ...spec, resourceSpec: {} }, new AbortController().signal);
      await driver.destroy(id);
      const used = [...api.usedPermissions()];
      expect(used.length).toBeGreaterThan(0);
      expect(used.filter((p) => !allowed.has(p))).toEqual([]);
      // Server-side apply may create an object, which needs `create` as well as `patch`.
      for (const res of ['deployments', 'services', 'secrets', 'horizontalpodautoscalers', 'poddisruptionbudgets', 'networkpolicies', 'scaledobjects']) {
        for (const verb of ['get', 'create', 'patch', 'delete']) expect(allowed.has(`${res}:${verb}`)).toBe(true);
      }
    } finally {
      await api.close();
    }
  });
});
