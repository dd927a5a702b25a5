import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface KubernetesApiRequest {
  /** The bearer token it came with (which client made it). */
  token?: string;
  method: string;
  path: string;
  query: Record<string, string>;
  contentType?: string;
  body?: Record<string, unknown>;
}

/** How Deployments roll out: become available, hit ProgressDeadlineExceeded, or never finish. */
export type RolloutBehaviour = 'complete' | 'stuck' | 'pending';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const RESOURCES: Record<string, { groupVersion: string; kind: string }> = {
  secrets: { groupVersion: 'v1', kind: 'Secret' },
  services: { groupVersion: 'v1', kind: 'Service' },
  deployments: { groupVersion: 'apps/v1', kind: 'Deployment' },
  horizontalpodautoscalers: { groupVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' },
  poddisruptionbudgets: { groupVersion: 'policy/v1', kind: 'PodDisruptionBudget' },
  networkpolicies: { groupVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy' },
  // KEDA's CRD: served once KEDA is installed.
  scaledobjects: { groupVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject' },
};

const invalid = (kind: string, name: string, field: string, value: unknown, detail: string) =>
  status(422, 'Invalid', `${kind} "${name}" is invalid: ${field}: Invalid value: ${JSON.stringify(value)}: ${detail}`);

/**
 * The API server's (and KEDA's admission webhook's) own checks of an applied object that a schema cannot express;
 * undefined when the object is accepted.
 */
function refusal(plural: string, name: string, body: Obj, store: Map<string, Obj>, namespace: string): ReturnType<typeof status> | undefined {
  const spec = body.spec ?? {};
  if (plural === 'deployments') {
    const labels = (spec.template?.metadata?.labels ?? {}) as Record<string, string>;
    const selector = (spec.selector?.matchLabels ?? {}) as Record<string, string>;
    if (!Object.keys(selector).length || !Object.entries(selector).every(([k, v]) => labels[k] === v)) {
      return invalid('Deployment.apps', name, 'spec.template.metadata.labels', labels, '`selector` does not match template `labels`');
    }
  }
  if (plural === 'poddisruptionbudgets' && spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    return invalid('PodDisruptionBudget.policy', name, 'spec', spec, 'minAvailable and maxUnavailable cannot be both set');
  }
  if (plural === 'horizontalpodautoscalers' && (spec.minReplicas ?? 1) > spec.maxReplicas) {
    return invalid('HorizontalPodAutoscaler.autoscaling', name, 'spec.maxReplicas', spec.maxReplicas, 'must be greater than or equal to `minReplicas`');
  }
  if (plural === 'scaledobjects') {
    // KEDA refuses to scale a workload another HPA already scales (it would create a second one).
    const target = spec.scaleTargetRef?.name;
    const rival = [...store.entries()].find(([key, o]) => key.startsWith(`horizontalpodautoscalers/${namespace}/`) && o.spec?.scaleTargetRef?.name === target);
    if (rival) {
      return status(403, 'Forbidden', `admission webhook "vscaledobject.kb.io" denied the request: the workload '${target}' of type 'apps/v1.Deployment' is already managed by the hpa '${rival[1].metadata.name}'`);
    }
  }
  return undefined;
}
const VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

export interface FakeKubernetesApi {
  url: string;
  token: string;
  requests: KubernetesApiRequest[];
  rollout: RolloutBehaviour;
  /** Stored object, as the API server would return it. */
  object(plural: string, namespace: string, name: string): Obj | undefined;
  /** (resource, verb) pairs the clients used, e.g. `deployments:patch`. */
  usedPermissions(): Set<string>;
  close(): Promise<void>;
}

function status(code: number, reason: string, message: string) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: code < 400 ? 'Success' : 'Failure', reason, message, code };
}

/**
 * A Kubernetes API server on loopback for driver tests: discovery, and create/read/server-side-apply/delete of
 * namespaced Secrets, Services, Deployments, HorizontalPodAutoscalers (autoscaling/v2), PodDisruptionBudgets
 * (policy/v1), NetworkPolicies and KEDA ScaledObjects, with the server's own validation of them (`refusal`),
 * answering with the API server's shapes
 * (Status errors, generation/resourceVersion bookkeeping, Secret stringData folded into base64 data). Deployments
 * roll out per `rollout`. Every request is recorded. Bearer-token authentication.
 */
export async function startFakeKubernetesApi(token = 'test-token', otherTokens: string[] = []): Promise<FakeKubernetesApi> {
  const tokens = new Set([token, ...otherTokens]);
  const store = new Map<string, Obj>();
  const requests: KubernetesApiRequest[] = [];
  const used = new Set<string>();
  const api: FakeKubernetesApi = {
    url: '',
    token,
    requests,
    rollout: 'complete',
    object: (plural, namespace, name) => store.get(`${plural}/${namespace}/${name}`),
    usedPermissions: () => used,
    close: async () => undefined,
  };

  const advanceRollout = (deployment: Obj) => {
    const generation = deployment.metadata.generation as number;
    // Without a replica count an autoscaler targeting the Deployment sets it (to at least its minReplicas).
    const autoscaler = store.get(`horizontalpodautoscalers/${deployment.metadata.namespace}/${deployment.metadata.name}`);
    const replicas = (deployment.spec?.replicas as number | undefined) ?? (autoscaler?.spec?.minReplicas as number | undefined) ?? 1;
    if (api.rollout === 'complete') {
      deployment.status = {
        observedGeneration: generation,
        replicas,
        updatedReplicas: replicas,
        readyReplicas: replicas,
        availableReplicas: replicas,
        conditions: [
          { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
          { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${deployment.metadata.name}-7d9f" has successfully progressed.` },
        ],
      };
    } else if (api.rollout === 'stuck') {
      deployment.status = {
        observedGeneration: generation,
        replicas: replicas + 1,
        updatedReplicas: 1,
        availableReplicas: replicas,
        unavailableReplicas: 1,
        conditions: [
          { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${deployment.metadata.name}-5c8b" has timed out progressing.` },
        ],
      };
    } else {
      deployment.status = { observedGeneration: generation, replicas, updatedReplicas: 0, availableReplicas: 0 };
    }
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const send = (code: number, body: unknown) => {
        res.writeHead(code, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      let body: Obj | undefined;
      try {
        body = raw ? (JSON.parse(raw) as Obj) : undefined;
      } catch {
        return send(400, status(400, 'BadRequest', 'body is not JSON'));
      }
      const bearer = req.headers.authorization?.startsWith('Bearer ') ? req.headers.authorization.slice(7) : undefined;
      requests.push({ token: bearer, method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), contentType: req.headers['content-type'], body });
      if (!bearer || !tokens.has(bearer)) return send(401, status(401, 'Unauthorized', 'Unauthorized'));

      // Discovery.
      const groupVersion = url.pathname === '/api/v1' ? 'v1' : /^\/apis\/([^/]+\/[^/]+)$/.exec(url.pathname)?.[1];
      if (req.method === 'GET' && groupVersion) {
        const resources = Object.entries(RESOURCES)
          .filter(([, r]) => r.groupVersion === groupVersion)
          .map(([name, r]) => ({ name, singularName: r.kind.toLowerCase(), namespaced: true, kind: r.kind, verbs: VERBS }));
        if (!resources.length) return send(404, status(404, 'NotFound', 'the server could not find the requested resource'));
        return send(200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources });
      }

      const m = /^\/(?:api\/v1|apis\/[^/]+\/[^/]+)\/namespaces\/([^/]+)\/([^/]+)(?:\/([^/]+))?$/.exec(url.pathname);
      const resource = m && RESOURCES[m[2]];
      if (!m || !resource) return send(404, status(404, 'NotFound', 'the server could not find the requested resource'));
      const [, namespace, plural, name] = m;
      const key = `${plural}/${namespace}/${name}`;
      const notFound = () => send(404, status(404, 'NotFound', `${plural} "${name}" not found`));
      used.add(`${plural}:${req.method === 'GET' ? (name ? 'get' : 'list') : req.method === 'PATCH' ? 'patch' : req.method === 'DELETE' ? 'delete' : req.method === 'POST' ? 'create' : 'update'}`);

      if (req.method === 'GET' && name) {
        const found = store.get(key);
        if (!found) return notFound();
        if (plural === 'deployments') advanceRollout(found);
        return send(200, found);
      }
      if (req.method === 'DELETE' && name) {
        if (!store.delete(key)) return notFound();
        return send(200, status(200, '', ''));
      }
      if (req.method === 'PATCH' && name) {
        if (req.headers['content-type'] !== 'application/apply-patch+yaml') return send(415, status(415, 'UnsupportedMediaType', 'only server-side apply is served'));
        if (!url.searchParams.get('fieldManager')) return send(422, status(422, 'Invalid', 'fieldManager is required for apply patch'));
        if (!body || body.kind !== resource.kind || body.apiVersion !== resource.groupVersion || body.metadata?.name !== name) {
          return send(422, status(422, 'Invalid', `${resource.kind} "${name}" is invalid: kind, apiVersion and metadata.name must match the URL`));
        }
        if (body.metadata.namespace && body.metadata.namespace !== namespace) return send(400, status(400, 'BadRequest', 'the namespace of the object does not match the namespace on the request'));
        const refused = refusal(plural, name, body, store, namespace);
        if (refused) return send(refused.code, refused);
        const existing = store.get(key);
        const next: Obj = { ...body, metadata: { ...body.metadata, namespace } };
        if (plural === 'secrets' && next.stringData) {
          next.data = { ...(next.data ?? {}), ...Object.fromEntries(Object.entries(next.stringData as Record<string, string>).map(([k, v]) => [k, Buffer.from(v).toString('base64')])) };
          delete next.stringData;
        }
        const specChanged = !existing || JSON.stringify(existing.spec) !== JSON.stringify(next.spec);
        next.metadata.uid = existing?.metadata.uid ?? randomUUID();
        next.metadata.creationTimestamp = existing?.metadata.creationTimestamp ?? new Date().toISOString();
        next.metadata.resourceVersion = String(Number(existing?.metadata.resourceVersion ?? 0) + 1);
        if (plural === 'deployments') {
          next.metadata.generation = (existing?.metadata.generation ?? 0) + (specChanged ? 1 : 0);
          next.status = existing?.status ?? {};
        }
        store.set(key, next);
        return send(existing ? 200 : 201, next);
      }
      return send(405, status(405, 'MethodNotAllowed', `${req.method} is not served here`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return api;
}
