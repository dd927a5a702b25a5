// eslint-disable-next-line @nx/enforce-module-boundaries -- test-only servers and fixtures, in a spec
import { startFakeKubernetesApi, type FakeKubernetesApi } from '@platform/control-plane-testing';
import { canConnect, checkPolicies, podTemplates, validateSchema, type KubernetesObject } from '@platform/k8s-manifests';
import { silentLogger } from '@platform/logging';
import { DeployError, PLATFORM_ONLY_ENV, type DeploySpec } from '../driver';
import { loadKubernetesClient } from './kubernetes-client';
import { KubernetesDriver, type KubernetesDriverOptions } from './kubernetes-driver';
import type { RenderedManifests } from './manifests';
import { resourceSpecIssues } from './resource-spec-shapes';

jest.setTimeout(60_000);

const DEPLOYMENT_ID = '3f0c2d7e-8a41-4b5e-9c3a-2e1f0d9c8b7a';

function spec(overrides: Partial<DeploySpec> = {}): DeploySpec {
  return {
    deploymentId: DEPLOYMENT_ID,
    deploymentName: 'weather',
    tenantId: '11111111-2222-4333-8444-555555555555',
    revisionId: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
    source: 'github',
    checkoutDir: '/var/cp/builds/x/y',
    configPath: '/var/cp/builds/x/y/agent/langgraph.json',
    repoUrl: 'https://github.com/acme/weather.git',
    commitSha: '0123456789abcdef0123456789abcdef01234567',
    repoToken: 'gho_secret',
    installCommand: 'npm install --omit=dev',
    env: { DEPLOYMENT_ID, DATABASE_URL: 'postgres://db/deployment_x', DEPLOYMENT_KEY: 'key-of-this-deployment-0123456789abcdef', MY_SECRET: 'v' },
    sharedDatabase: true,
    resourceSpec: {
      min_scale: 2,
      max_scale: 4,
      cpu: 0.5,
      cpu_limit: 1,
      memory_mb: 512,
      memory_limit_mb: 1024,
      labels: { team: 'weather' },
      annotations: { 'example.com/owner': 'weather' },
      service_account_name: 'weather-sa',
      image_pull_secrets: [{ name: 'regcred' }],
      volumes: [{ name: 'cache', emptyDir: { sizeLimit: '1Gi' } }],
      volume_mounts: [{ name: 'cache', mountPath: '/cache' }],
      init_containers: [{ name: 'warm', image: 'busybox:1.36', command: ['true'] }],
      sidecars: [{ name: 'proxy', image: 'envoyproxy/envoy:v1.31', ports: [{ containerPort: 9901 }] }],
    },
    ...overrides,
  };
}

describe('KubernetesDriver (Kubernetes API test server on loopback)', () => {
  let api: FakeKubernetesApi;
  let driver: KubernetesDriver;
  const make = (token?: string, rolloutTimeoutMs = 5_000, extra: Partial<KubernetesDriverOptions> = {}) =>
    new KubernetesDriver({
      ...extra,
      kubeConfig: (k8s) => {
        const kc = new k8s.KubeConfig();
        kc.loadFromOptions({
          clusters: [{ name: 'test', server: api.url, skipTLSVerify: true }],
          users: [{ name: 'cp', token: token ?? api.token }],
          contexts: [{ name: 'test', cluster: 'test', user: 'cp', namespace: 'agents' }],
          currentContext: 'test',
        });
        return kc;
      },
      namespace: 'agents',
      agentServerImage: 'registry.example.com/agent-platform:1.2.3',
      agentServerCommand: ['node', 'dist/apps/agent-server/main.cjs'],
      gitImage: 'alpine/git:2.47.2',
      logger: silentLogger,
      rolloutTimeoutMs,
      pollIntervalMs: 50,
    });

  beforeEach(async () => {
    api = await startFakeKubernetesApi();
    driver = make();
  });
  afterEach(() => api.close());

  const objectsOf = (r: RenderedManifests) => [r.secret, r.service, r.deployment, r.disruptionBudget, r.networkPolicy, ...(r.autoscaler ? [r.autoscaler] : [])] as KubernetesObject[];
  const DEPLOYMENT = `agent-${DEPLOYMENT_ID}`;

  it('renders a Secret, Service, Deployment, PDB, NetworkPolicy and autoscaler that validate against the Kubernetes schemas', async () => {
    const rendered = await driver.render(spec());
    for (const object of objectsOf(rendered)) expect([object.kind, await validateSchema(object)]).toEqual([object.kind, []]);
    const pod = rendered.deployment.spec?.template.spec;
    expect(rendered.deployment.spec?.replicas).toBeUndefined(); // the autoscaler owns the count
    expect(rendered.autoscaler?.spec).toMatchObject({ minReplicas: 2, maxReplicas: 4 });
    expect(rendered.deployment.spec?.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
    expect(pod?.serviceAccountName).toBe('weather-sa');
    expect(pod?.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expect(pod?.initContainers?.map((c) => c.name)).toEqual(['fetch-source', 'install-dependencies', 'warm']);
    expect(pod?.containers.map((c) => c.name)).toEqual(['agent-server', 'proxy']);
    const server = pod?.containers[0];
    expect(server).toMatchObject({
      image: 'registry.example.com/agent-platform:1.2.3',
      resources: { requests: { cpu: '0.5', memory: '512Mi' }, limits: { cpu: '1', memory: '1024Mi' } },
      readinessProbe: { httpGet: { path: '/ready', port: 'http' } },
      livenessProbe: { httpGet: { path: '/ok', port: 'http' } },
      startupProbe: { httpGet: { path: '/ok', port: 'http' } },
      envFrom: [{ secretRef: { name: `agent-${DEPLOYMENT_ID}-env` } }],
    });
    expect(server?.env).toEqual(expect.arrayContaining([{ name: 'LANGGRAPH_CONFIG_PATH', value: '/deps/app/agent/langgraph.json' }]));
    expect(server?.volumeMounts).toEqual([{ name: 'app-source', mountPath: '/deps/app' }, { name: 'tmp', mountPath: '/tmp' }, { name: 'cache', mountPath: '/cache' }]);
    expect(pod?.initContainers?.[1]).toMatchObject({ workingDir: '/deps/app/agent', command: ['sh', '-c', 'npm install --omit=dev'] });
    // The token reaches git through a Secret reference, never as a literal in the pod spec.
    expect(JSON.stringify(rendered.deployment)).not.toContain('gho_secret');
    expect(rendered.secret.stringData?.GIT_AUTH_HEADER).toBe(`Authorization: Basic ${Buffer.from('x-access-token:gho_secret').toString('base64')}`);
    expect(rendered.deployment.metadata?.labels).toMatchObject({ team: 'weather', 'agent-platform.dev/deployment-id': DEPLOYMENT_ID });
  });

  it('passes the platform\'s policy checks, as the k8s overlays do', async () => {
    // The user's own init containers and sidecars are theirs to shape; the driver's objects follow every rule.
    const rendered = await driver.render(spec({ resourceSpec: { min_scale: 2, max_scale: 4, cpu: 0.5, memory_mb: 512 } }));
    expect(checkPolicies(objectsOf(rendered))).toEqual([]);
    const pod = rendered.deployment.spec?.template.spec;
    // The grace period covers the drain: preStop 5 s + RUN_SHUTDOWN_GRACE (runs handed back, leases released) + 10 s HTTP close.
    expect(pod?.terminationGracePeriodSeconds).toBe(40);
    expect(pod?.containers[0].env).toEqual(expect.arrayContaining([{ name: 'RUN_SHUTDOWN_GRACE', value: '10s' }]));
    expect(pod?.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(pod?.containers[0].securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(pod?.containers[0].resources).toEqual({ requests: { cpu: '0.5', memory: '512Mi' }, limits: { cpu: '2', memory: '1Gi' } });
    expect(rendered.disruptionBudget.spec).toEqual({ maxUnavailable: 1, selector: { matchLabels: { 'agent-platform.dev/deployment-id': DEPLOYMENT_ID } } });

    // Only the gateway (and Prometheus) reaches it; it reaches the gateway, Postgres and HTTPS.
    const objects = objectsOf(rendered);
    const server = { namespace: 'agents', labels: pod ? podTemplates(objects)[0].labels : {}, pod: podTemplates(objects)[0] };
    const gateway = { namespace: 'agents', labels: { 'app.kubernetes.io/name': 'gateway' } };
    expect(canConnect(objects, gateway, server, 8000)).toBe(true);
    expect(canConnect(objects, { namespace: 'monitoring', labels: {} }, server, 8000)).toBe(true);
    expect(canConnect(objects, { namespace: 'agents', labels: { 'app.kubernetes.io/name': 'tracing' } }, server, 8000)).toBe(false);
    expect(canConnect(objects, server, gateway, 8080)).toBe(true);
    expect(canConnect(objects, server, { ip: '10.0.0.5' }, 5432)).toBe(true);
    expect(canConnect(objects, server, { ip: '104.18.6.192' }, 443)).toBe(true);
    expect(canConnect(objects, server, { namespace: 'agents', labels: { 'app.kubernetes.io/name': 'tracing' } }, 50052)).toBe(false);
  });

  it('with KEDA, scales on CPU and on the queued + running runs the replicas export to Prometheus', async () => {
    const keda = make(undefined, 5_000, { autoscaler: 'keda', kedaPrometheusUrl: 'http://prometheus.monitoring.svc:9090' });
    const rendered = await keda.render(spec({ env: { ...spec().env, N_JOBS_PER_WORKER: '4' } }));
    expect(rendered.autoscaler?.kind).toBe('ScaledObject');
    expect(rendered.deployment.spec?.template.metadata?.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': '8000', 'prometheus.io/path': '/metrics' });
    expect(await validateSchema(rendered.autoscaler as KubernetesObject)).toEqual([]);
    expect(rendered.autoscaler?.spec).toMatchObject({
      scaleTargetRef: { name: DEPLOYMENT },
      minReplicaCount: 2,
      maxReplicaCount: 4,
      triggers: [
        {
          type: 'prometheus',
          metadata: {
            serverAddress: 'http://prometheus.monitoring.svc:9090',
            query: `max(agent_server_runs_queued{deployment_id="${DEPLOYMENT_ID}"}) + max(agent_server_runs_running{deployment_id="${DEPLOYMENT_ID}"})`,
            threshold: '4',
          },
        },
        { type: 'cpu', metricType: 'Utilization', metadata: { value: '80' } },
      ],
    });
    expect(rendered.deployment.spec?.replicas).toBeUndefined();
    expect(checkPolicies(objectsOf(rendered), {}, ['scalerTargets'])).toEqual([]);

    // From an HPA to KEDA: the HPA goes first (KEDA's webhook refuses a target an HPA scales), then the ScaledObject.
    await driver.deploy(spec(), new AbortController().signal);
    expect(api.object('horizontalpodautoscalers', 'agents', DEPLOYMENT)).toBeDefined();
    await keda.deploy(spec({ revisionId: 'dddddddd-bbbb-4ccc-8ddd-eeeeeeeeeeee' }), new AbortController().signal);
    expect(api.object('horizontalpodautoscalers', 'agents', DEPLOYMENT)).toBeUndefined();
    expect(api.object('scaledobjects', 'agents', DEPLOYMENT)?.spec.triggers[0].type).toBe('prometheus');
    await keda.deploy(spec({ resourceSpec: { min_scale: 2 } }), new AbortController().signal);
    expect(api.object('scaledobjects', 'agents', DEPLOYMENT)).toBeUndefined();
  });

  it('reports manifests that break the schemas: unknown fields, wrong types, missing required fields', async () => {
    expect(await resourceSpecIssues({ volumes: [{ name: 'v', emptyDirr: {} }] })).toEqual([{ key: 'volumes', path: '[0].emptyDirr', message: 'unknown field "emptyDirr"' }]);
    expect(await resourceSpecIssues({ volume_mounts: [{ mountPath: 3 }] })).toEqual([
      { key: 'volume_mounts', path: '[0].name', message: 'required field missing' },
      { key: 'volume_mounts', path: '[0].mountPath', message: 'must be string' },
    ]);
    expect(await resourceSpecIssues({ sidecars: [{ name: 'c', ports: [{ containerPort: '80' }] }] })).toEqual([
      { key: 'sidecars', path: '[0].ports[0].containerPort', message: 'must be integer' },
    ]);
    expect(await resourceSpecIssues({ init_containers: [{ image: 'busybox:1.36' }], sidecars: [] })).toEqual([{ key: 'init_containers', path: '[0].name', message: 'required field missing' }]);
    expect(await resourceSpecIssues({ volumes: [{ name: 'cache', emptyDir: {} }], volume_mounts: [{ name: 'cache', mountPath: '/cache' }] })).toEqual([]);
    await expect(driver.render(spec({ resourceSpec: { sidecars: [{ name: 'x', imagee: 'typo' }] } }))).rejects.toThrow(/Invalid Kubernetes manifests: Deployment.spec.template.spec.containers\[1\].imagee: unknown field/);
  });

  it('applies the objects with server-side apply, waits for the rollout, and returns the Service URL', async () => {
    const { upstreamUrl } = await driver.deploy(spec(), new AbortController().signal);
    expect(upstreamUrl).toBe(`http://agent-${DEPLOYMENT_ID}.agents.svc.cluster.local:8000`);
    const applies = api.requests.filter((r) => r.method === 'PATCH');
    expect(applies.map((r) => [r.path, r.contentType, r.query.fieldManager, r.query.force])).toEqual([
      [`/api/v1/namespaces/agents/secrets/agent-${DEPLOYMENT_ID}-env`, 'application/apply-patch+yaml', 'agent-platform-control-plane', 'true'],
      [`/api/v1/namespaces/agents/services/agent-${DEPLOYMENT_ID}`, 'application/apply-patch+yaml', 'agent-platform-control-plane', 'true'],
      [`/apis/apps/v1/namespaces/agents/deployments/agent-${DEPLOYMENT_ID}`, 'application/apply-patch+yaml', 'agent-platform-control-plane', 'true'],
      [`/apis/policy/v1/namespaces/agents/poddisruptionbudgets/agent-${DEPLOYMENT_ID}`, 'application/apply-patch+yaml', 'agent-platform-control-plane', 'true'],
      [`/apis/networking.k8s.io/v1/namespaces/agents/networkpolicies/agent-${DEPLOYMENT_ID}`, 'application/apply-patch+yaml', 'agent-platform-control-plane', 'true'],
      [`/apis/autoscaling/v2/namespaces/agents/horizontalpodautoscalers/agent-${DEPLOYMENT_ID}`, 'application/apply-patch+yaml', 'agent-platform-control-plane', 'true'],
    ]);
    // What reached the API server is the wire form (the client's `_from` went out as `from`).
    expect(api.object('networkpolicies', 'agents', DEPLOYMENT)?.spec.ingress[0].from).toEqual([{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } } }]);
    const secret = api.object('secrets', 'agents', `agent-${DEPLOYMENT_ID}-env`);
    expect(Buffer.from(secret?.data.MY_SECRET, 'base64').toString()).toBe('v');
    // The pod's Secret carries its own deployment's key and no platform key.
    expect(Buffer.from(secret?.data.DEPLOYMENT_KEY, 'base64').toString()).toBe('key-of-this-deployment-0123456789abcdef');
    expect(Object.keys(secret?.data ?? {}).filter((name) => PLATFORM_ONLY_ENV.includes(name))).toEqual([]);
    expect(api.object('deployments', 'agents', `agent-${DEPLOYMENT_ID}`)?.status).toMatchObject({ observedGeneration: 1, availableReplicas: 2 });
  });

  it('rolls a new revision (new generation) and drops the autoscaler when scaling is fixed again', async () => {
    await driver.deploy(spec(), new AbortController().signal);
    await driver.deploy(spec({ revisionId: 'bbbbbbbb-bbbb-4ccc-8ddd-eeeeeeeeeeee', resourceSpec: { min_scale: 3 } }), new AbortController().signal);
    const deployment = api.object('deployments', 'agents', `agent-${DEPLOYMENT_ID}`);
    expect(deployment?.metadata.generation).toBe(2);
    expect(deployment?.spec.replicas).toBe(3);
    expect(deployment?.spec.template.metadata.annotations['agent-platform.dev/revision-id']).toBe('bbbbbbbb-bbbb-4ccc-8ddd-eeeeeeeeeeee');
    expect(api.object('horizontalpodautoscalers', 'agents', `agent-${DEPLOYMENT_ID}`)).toBeUndefined();
  });

  it('fails a rollout that hits its progress deadline, or does not finish in time, with DeployError', async () => {
    api.rollout = 'stuck';
    await expect(driver.deploy(spec(), new AbortController().signal)).rejects.toThrow(
      new DeployError(`Rollout of agent-${DEPLOYMENT_ID} failed: ProgressDeadlineExceeded: ReplicaSet "agent-${DEPLOYMENT_ID}-5c8b" has timed out progressing.`),
    );
    api.rollout = 'pending';
    const quick = make(undefined, 300);
    await expect(quick.deploy(spec({ revisionId: 'cccccccc-bbbb-4ccc-8ddd-eeeeeeeeeeee' }), new AbortController().signal)).rejects.toThrow(
      /did not complete within 0 s \(0 updated, 0 available\)/,
    );
  });

  it('refuses to run without a Postgres database or with a platform secret, and reports an API refusal', async () => {
    await expect(driver.deploy(spec({ env: { DATA_DIR: '/x' }, sharedDatabase: false }), new AbortController().signal)).rejects.toThrow(/needs a Postgres server/);
    // A platform secret in a deployment's environment is a wiring mistake: nothing is applied with it.
    const before = api.requests.length;
    await expect(driver.deploy(spec({ env: { ...spec().env, INTERNAL_SECRET: 'platform-secret-0123456789' } }), new AbortController().signal)).rejects.toThrow(
      /Refusing to give a deployment the platform's INTERNAL_SECRET/,
    );
    expect(api.requests.length).toBe(before);
    const unauthorized = make('wrong-token');
    await expect(unauthorized.deploy(spec(), new AbortController().signal)).rejects.toThrow(DeployError);
  });

  it('runs an external_docker image as is', async () => {
    const rendered = await driver.render(spec({ source: 'external_docker', imageUri: 'ghcr.io/acme/agent:7', checkoutDir: undefined, configPath: undefined, resourceSpec: {} }));
    const pod = rendered.deployment.spec?.template.spec;
    expect(pod?.initContainers).toEqual([]);
    expect(pod?.containers[0]).toMatchObject({ image: 'ghcr.io/acme/agent:7' });
    expect(pod?.containers[0].command).toBeUndefined();
    expect(rendered.deployment.spec?.replicas).toBe(1);
  });

  it('deletes everything of a deployment, tolerating what is already gone', async () => {
    await driver.deploy(spec(), new AbortController().signal);
    await driver.destroy(DEPLOYMENT_ID);
    expect(api.object('deployments', 'agents', `agent-${DEPLOYMENT_ID}`)).toBeUndefined();
    expect(api.object('services', 'agents', `agent-${DEPLOYMENT_ID}`)).toBeUndefined();
    expect(api.object('secrets', 'agents', `agent-${DEPLOYMENT_ID}-env`)).toBeUndefined();
    expect(api.object('poddisruptionbudgets', 'agents', DEPLOYMENT)).toBeUndefined();
    expect(api.object('networkpolicies', 'agents', DEPLOYMENT)).toBeUndefined();
    expect(api.object('horizontalpodautoscalers', 'agents', DEPLOYMENT)).toBeUndefined();
    await driver.destroy(DEPLOYMENT_ID);
  });

  it('the test API server refuses what the real one (and KEDA\'s webhook) refuses', async () => {
    const k8s = await loadKubernetesClient();
    const kc = new k8s.KubeConfig();
    kc.loadFromOptions({ clusters: [{ name: 'c', server: api.url, skipTLSVerify: true }], users: [{ name: 'u', token: api.token }], contexts: [{ name: 'c', cluster: 'c', user: 'u' }], currentContext: 'c' });
    const client = k8s.KubernetesObjectApi.makeApiClient(kc);
    const apply = (object: KubernetesObject) => client.patch(object, undefined, undefined, 'test', true, k8s.PatchStrategy.ServerSideApply);
    const metadata = { name: 'x', namespace: 'agents' };
    await expect(apply({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata, spec: { minAvailable: 1, maxUnavailable: 1, selector: { matchLabels: { a: 'b' } } } } as KubernetesObject)).rejects.toMatchObject({ code: 422 });
    await expect(apply({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata, spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, minReplicas: 3, maxReplicas: 2 } } as KubernetesObject)).rejects.toMatchObject({ code: 422 });
    const template = { metadata: { labels: { a: 'c' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } };
    await expect(apply({ apiVersion: 'apps/v1', kind: 'Deployment', metadata, spec: { selector: { matchLabels: { a: 'b' } }, template } } as KubernetesObject)).rejects.toMatchObject({ code: 422 });
    await apply({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata, spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, maxReplicas: 2 } } as KubernetesObject);
    await expect(apply({ apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata, spec: { scaleTargetRef: { name: 'x' }, triggers: [] } } as KubernetesObject)).rejects.toMatchObject({ code: 403 });
  });

  it('re-applies active deployments on resume', async () => {
    const urls = await driver.resume([spec()]);
    expect(urls.get(DEPLOYMENT_ID)).toBe(`http://agent-${DEPLOYMENT_ID}.agents.svc.cluster.local:8000`);
    expect(api.object('deployments', 'agents', `agent-${DEPLOYMENT_ID}`)).toBeDefined();
  });
});
