import { readFileSync } from 'node:fs';
import path from 'node:path';
import { kubectlVersion, renderKustomization } from './kustomize.testing';
import { canConnect, podEndpoint, type Endpoint } from './network-reach';
import { podTemplates, type Json } from './pod-templates';
import { checkPolicies, type PolicyCheckName, type PolicyContext } from './policy-checks';
import { validateSchema, type KubernetesObject } from './schema-validation';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../../../..');
const overlay = (name: string) => path.join(ROOT, 'k8s/overlays', name);
const hasKubectl = kubectlVersion() !== undefined;
if (!hasKubectl) {
  if (process.env.REQUIRE_SERVICES === '1') throw new Error('kubectl (with its kustomize) is not installed, and REQUIRE_SERVICES=1 requires it');
  process.stderr.write('SKIPPED: k8s overlay tests (kubectl with kustomize not found)\n');
}

const OVERLAYS: Record<string, PolicyContext> = {
  dev: {},
  // Production's Secret comes from the operator's secret store; its keys are the overlay's declared contract.
  prod: { external: JSON.parse(readFileSync(path.join(overlay('prod'), 'external-secrets.json'), 'utf8')) as Record<string, string[]> },
};

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const find = (objects: KubernetesObject[], kind: string, name: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata?.name === name);
  if (!found) throw new Error(`${kind}/${name} not rendered`);
  return found as Json;
};

(hasKubectl ? describe : describe.skip)('k8s overlays (kubectl kustomize, Kubernetes schemas, policy checks)', () => {
  const rendered: Record<string, KubernetesObject[]> = {};
  beforeAll(async () => {
    for (const name of Object.keys(OVERLAYS)) rendered[name] = await renderKustomization(overlay(name));
  });

  describe.each(Object.keys(OVERLAYS))('overlay %s', (name) => {
    it('renders every object of the platform', () => {
      const kinds = new Set(rendered[name].map((o) => o.kind));
      for (const kind of ['Deployment', 'Service', 'PodDisruptionBudget', 'HorizontalPodAutoscaler', 'ScaledObject', 'NetworkPolicy', 'Job']) expect(kinds).toContain(kind);
      const deployments = rendered[name].filter((o) => o.kind === 'Deployment').map((o) => o.metadata?.name);
      expect(deployments.sort()).toEqual(['control-plane', 'export', 'export-worker', 'gateway', 'tracing']);
    });

    it('validates every object against the pinned Kubernetes (and KEDA) schemas', async () => {
      for (const object of rendered[name]) {
        expect({ object: `${object.kind}/${object.metadata?.name}`, issues: await validateSchema(object) }).toEqual({ object: `${object.kind}/${object.metadata?.name}`, issues: [] });
      }
    });

    it('passes every policy check', () => {
      expect(checkPolicies(rendered[name], OVERLAYS[name])).toEqual([]);
    });
  });

  it('prod: external Postgres and NATS, TLS ingress, two replicas of every stateless service, a pinned release', () => {
    const prod = rendered.prod;
    expect(prod.some((o) => o.kind === 'StatefulSet')).toBe(false);
    expect(prod.some((o) => o.kind === 'Secret')).toBe(false);
    const ingress = find(prod, 'Ingress', 'gateway');
    expect(ingress.spec.tls[0]).toEqual({ hosts: ['agents.example.com'], secretName: 'agents-tls' });
    expect(ingress.spec.rules[0].http.paths[0].backend.service).toEqual({ name: 'gateway', port: { name: 'http' } });
    for (const hpa of ['gateway', 'tracing']) expect(find(prod, 'HorizontalPodAutoscaler', hpa).spec.minReplicas).toBeGreaterThanOrEqual(2);
    for (const fixed of ['control-plane', 'export']) expect(find(prod, 'Deployment', fixed).spec.replicas).toBeGreaterThanOrEqual(2);
    expect(find(prod, 'ScaledObject', 'export-worker').spec.minReplicaCount).toBeGreaterThanOrEqual(2);
    for (const pod of podTemplates(prod)) for (const c of pod.spec.containers as Json[]) expect(c.image).toBe('registry.example.com/agent-platform:0.1.0');
    // A 3-node JetStream cluster keeps three copies of the job streams.
    expect(find(prod, 'ConfigMap', 'platform-config').data.NATS_STREAM_REPLICAS).toBe('3');
  });

  it('scales the export workers on the JetStream consumer the workers really use', () => {
    const trigger = find(rendered.dev, 'ScaledObject', 'export-worker').spec.triggers[0];
    expect(trigger.type).toBe('nats-jetstream');
    // libs/contracts: queue export-partitions (the bus adds no stream prefix in production), durable export-workers.
    expect(trigger.metadata).toMatchObject({ stream: 'export-partitions', consumer: 'export-workers', account: '$G', natsServerMonitoringEndpoint: 'nats:8222' });
    const nats = find(rendered.dev, 'Service', 'nats');
    expect(nats.spec.ports).toEqual(expect.arrayContaining([expect.objectContaining({ port: 8222 })]));
  });

  describe('network policies (dev)', () => {
    const objects = () => rendered.dev;
    const pod = (name: string): Endpoint => {
      const found = podTemplates(objects()).find((p) => p.owner.metadata?.name === name);
      if (!found) throw new Error(`no pod ${name}`);
      return podEndpoint(found);
    };
    const inNamespace = (namespace: string): Endpoint => ({ namespace, labels: {} });
    const agentServer: Endpoint = { namespace: 'agent-platform', labels: { 'app.kubernetes.io/name': 'agent-server', 'app.kubernetes.io/part-of': 'agent-platform' } };
    const services = ['control-plane', 'tracing', 'export', 'export-worker'] as const;
    const httpPort: Record<string, number> = { gateway: 8080, 'control-plane': 8181, tracing: 8182, export: 8183, 'export-worker': 8184 };

    it('only the ingress controller (and the platform\'s own callers) reaches the gateway', () => {
      expect(canConnect(objects(), inNamespace('ingress-nginx'), pod('gateway'), 8080)).toBe(true);
      expect(canConnect(objects(), inNamespace('default'), pod('gateway'), 8080)).toBe(false);
      expect(canConnect(objects(), pod('tracing'), pod('gateway'), 8080)).toBe(false);
    });

    it('only the gateway reaches the services\' HTTP ports (Prometheus scrapes /metrics there)', () => {
      for (const service of services) {
        const port = httpPort[service];
        expect([service, canConnect(objects(), pod('gateway'), pod(service), port)]).toEqual([service, service !== 'export-worker']);
        for (const other of ['tracing', 'export', 'export-worker'].filter((o) => o !== service)) expect([other, service, canConnect(objects(), pod(other), pod(service), port)]).toEqual([other, service, false]);
        expect(canConnect(objects(), inNamespace('ingress-nginx'), pod(service), port)).toBe(false);
        expect(canConnect(objects(), agentServer, pod(service), port)).toBe(false);
        expect(canConnect(objects(), inNamespace('monitoring'), pod(service), port)).toBe(true);
      }
    });

    it('only the services that call a gRPC port reach it', () => {
      expect(canConnect(objects(), pod('gateway'), pod('control-plane'), 50051)).toBe(true);
      expect(canConnect(objects(), pod('export-worker'), pod('tracing'), 50052)).toBe(true);
      expect(canConnect(objects(), pod('export'), pod('tracing'), 50052)).toBe(true);
      expect(canConnect(objects(), pod('export-worker'), pod('export'), 50053)).toBe(true);
      expect(canConnect(objects(), pod('gateway'), pod('tracing'), 50052)).toBe(false);
      expect(canConnect(objects(), agentServer, pod('control-plane'), 50051)).toBe(false);
      expect(canConnect(objects(), inNamespace('monitoring'), pod('tracing'), 50052)).toBe(false);
    });

    it('only the platform reaches Postgres and NATS; KEDA reads NATS monitoring', () => {
      for (const service of ['gateway', 'control-plane', 'tracing', 'export']) expect(canConnect(objects(), pod(service), pod('postgres'), 5432)).toBe(true);
      expect(canConnect(objects(), pod('migrate-tracing'), pod('postgres'), 5432)).toBe(true);
      expect(canConnect(objects(), inNamespace('default'), pod('postgres'), 5432)).toBe(false);
      expect(canConnect(objects(), pod('export-worker'), pod('postgres'), 5432)).toBe(false);
      expect(canConnect(objects(), pod('export-worker'), pod('nats'), 4222)).toBe(true);
      expect(canConnect(objects(), pod('gateway'), pod('nats'), 4222)).toBe(false);
      expect(canConnect(objects(), inNamespace('keda'), pod('nats'), 8222)).toBe(true);
      expect(canConnect(objects(), inNamespace('default'), pod('nats'), 8222)).toBe(false);
    });

    it('export workers reach S3 over HTTPS; the tracing service reaches nothing outside', () => {
      const s3: Endpoint = { ip: '52.216.8.1' };
      expect(canConnect(objects(), pod('export-worker'), s3, 443)).toBe(true);
      expect(canConnect(objects(), pod('export-worker'), s3, 80)).toBe(false);
      expect(canConnect(objects(), pod('tracing'), s3, 443)).toBe(false);
      expect(canConnect(objects(), pod('gateway'), s3, 443)).toBe(false);
    });

    it('a policy that lets everyone in is caught', () => {
      const broken = clone(objects());
      find(broken, 'NetworkPolicy', 'tracing').spec.ingress.push({ ports: [{ protocol: 'TCP', port: 'http' }] });
      expect(canConnect(broken, inNamespace('default'), pod('tracing'), 8182)).toBe(true);
    });
  });

  it('reports a kustomization that does not build', async () => {
    await expect(renderKustomization(path.join(ROOT, 'k8s/base/no-such-overlay'))).rejects.toThrow(/kubectl kustomize .* failed/);
  });

  // Each check, against a deliberately broken copy of the dev overlay.
  const breaks: [PolicyCheckName, (objects: KubernetesObject[]) => void, RegExp][] = [
    ['probes', (o) => delete find(o, 'Deployment', 'tracing').spec.template.spec.containers[0].readinessProbe, /no readiness probe/],
    ['probes', (o) => (find(o, 'Deployment', 'gateway').spec.template.spec.containers[0].livenessProbe.httpGet.path = '/ready'), /liveness must probe \/ok/],
    ['resources', (o) => delete find(o, 'Deployment', 'export').spec.template.spec.containers[0].resources.limits.memory, /no memory limit/],
    ['resources', (o) => delete find(o, 'Job', 'migrate-gateway').spec.template.spec.containers[0].resources.requests.cpu, /no cpu request/],
    ['nonRoot', (o) => (find(o, 'Deployment', 'gateway').spec.template.spec.securityContext.runAsNonRoot = false), /must run as non-root/],
    ['nonRoot', (o) => (find(o, 'Deployment', 'gateway').spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation = true), /allowPrivilegeEscalation/],
    ['readOnlyRoot', (o) => (find(o, 'Deployment', 'export-worker').spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem = false), /read-only/],
    ['imageTags', (o) => (find(o, 'Deployment', 'tracing').spec.template.spec.containers[0].image = 'agent-platform:latest'), /tagged latest/],
    ['imageTags', (o) => (find(o, 'StatefulSet', 'nats').spec.template.spec.containers[0].image = 'nats'), /has no tag/],
    ['imageTags', (o) => (find(o, 'Deployment', 'control-plane').spec.template.spec.containers[0].env.find((e: Json) => e.name === 'K8S_AGENT_SERVER_IMAGE').value = 'agent-platform:latest'), /env\[\d+\]/],
    ['serviceSelectors', (o) => (find(o, 'Service', 'export').spec.selector = { 'app.kubernetes.io/name': 'exporter' }), /selects no pod/],
    ['serviceSelectors', (o) => (find(o, 'Service', 'tracing').spec.ports[1].targetPort = 'grcp'), /no selected pod declares port grcp/],
    ['configReferences', (o) => (find(o, 'Deployment', 'gateway').spec.template.spec.containers[0].env.find((e: Json) => e.name === 'DATABASE_URL').valueFrom.secretKeyRef.key = 'DATABASE_URL_GATEWAYY'), /has no key DATABASE_URL_GATEWAYY/],
    ['configReferences', (o) => (find(o, 'Deployment', 'tracing').spec.template.spec.containers[0].envFrom[0].configMapRef.name = 'platform-confg'), /ConfigMap platform-confg does not exist/],
    ['disruptionBudgets', (o) => o.splice(o.indexOf(find(o, 'PodDisruptionBudget', 'export-worker') as KubernetesObject), 1), /no PodDisruptionBudget/],
    ['topologySpread', (o) => (find(o, 'Deployment', 'gateway').spec.template.spec.topologySpreadConstraints = []), /does not spread its pods over kubernetes.io\/hostname/],
    ['terminationGrace', (o) => (find(o, 'Deployment', 'gateway').spec.template.spec.terminationGracePeriodSeconds = 10), /10 s does not cover containers\[0\]'s drain of 15 s/],
    ['scalerTargets', (o) => (find(o, 'ScaledObject', 'export-worker').spec.scaleTargetRef.name = 'gateway'), /is also scaled by/],
  ];
  it.each(breaks.map(([check, , message], i) => [check, i, message] as const))('the %s check fails on a broken manifest (#%i)', (check, i, message) => {
    const broken = clone(rendered.dev);
    breaks[i][1](broken);
    const issues = checkPolicies(broken, {}, [check]);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.map((x) => `${x.object} ${x.path}: ${x.message}`).join('\n')).toMatch(message);
    expect(checkPolicies(rendered.dev, {}, [check])).toEqual([]);
  });

  it('the schema check fails on a broken manifest: unknown field, wrong type, missing field, bad enum, unknown kind', async () => {
    const broken = clone(rendered.dev);
    const deployment = find(broken, 'Deployment', 'gateway');
    deployment.spec.template.spec.containers[0].imagePullPolicyy = 'Always';
    deployment.spec.template.spec.containers[0].ports[0].containerPort = '8080';
    delete deployment.spec.selector;
    delete find(broken, 'HorizontalPodAutoscaler', 'gateway').spec.maxReplicas;
    find(broken, 'Service', 'gateway').spec.ports[0].protocol = 'HTTP';
    find(broken, 'ScaledObject', 'export-worker').spec.triggers[0].metdata = {};
    expect(await validateSchema(deployment)).toEqual([
      { path: 'spec.selector', message: 'required field missing' },
      { path: 'spec.template.spec.containers[0].ports[0].containerPort', message: 'must be integer' },
      { path: 'spec.template.spec.containers[0].imagePullPolicyy', message: 'unknown field "imagePullPolicyy"' },
    ]);
    expect(await validateSchema(find(broken, 'HorizontalPodAutoscaler', 'gateway'))).toEqual([{ path: 'spec.maxReplicas', message: 'required field missing' }]);
    expect(await validateSchema(find(broken, 'Service', 'gateway'))).toEqual([{ path: 'spec.ports[0].protocol', message: 'must be one of "SCTP", "TCP", "UDP"' }]);
    expect(await validateSchema(find(broken, 'ScaledObject', 'export-worker'))).toEqual([{ path: 'spec.triggers[0].metdata', message: 'unknown field "metdata"' }]);
    expect(await validateSchema({ apiVersion: 'extensions/v1beta1', kind: 'Ingress', metadata: { name: 'x' } })).toEqual([
      { path: 'kind', message: expect.stringContaining('no schema for extensions/v1beta1/Ingress') },
    ]);
  });
});
