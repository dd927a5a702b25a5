import { parseDuration } from '@platform/config';
import { containersOf, namespaceOf, podTemplates, preStopSeconds, refOf, selects, selectsPlain, type Json, type PodTemplate } from './pod-templates';
import type { KubernetesObject } from './schema-validation';

/** A rule a manifest set breaks: which check, which object, where, what. */
export interface PolicyIssue {
  check: PolicyCheckName;
  object: string;
  path: string;
  message: string;
}

export interface PolicyContext {
  /**
   * Secrets and ConfigMaps created outside the rendered set (from a secret store), with the keys they must hold:
   * `{ 'Secret/platform-secrets': ['DATABASE_URL_GATEWAY', ...] }`.
   */
  external?: Record<string, string[]>;
}

// Services close their HTTP server with a 10 s grace (start-http-server.ts) once their work is handed back.
const HTTP_CLOSE_SECONDS = 10;

type Check = (objects: KubernetesObject[], context: PolicyContext) => Omit<PolicyIssue, 'check'>[];

const longRunning = (objects: KubernetesObject[]) => podTemplates(objects).filter((p) => p.longRunning);
const servesProbes = (container: Json) => container.readinessProbe?.httpGet?.path === '/ready';

/** Readiness and liveness probes on every long-running container; ours probe `/ready` and `/ok`. */
const probes: Check = (objects) =>
  longRunning(objects).flatMap((pod) =>
    containersOf(pod)
      .filter((c) => !c.init)
      .flatMap(({ container, path }) => {
        const issues = [];
        if (!container.readinessProbe) issues.push({ object: pod.ref, path: `${path}.readinessProbe`, message: 'no readiness probe' });
        if (!container.livenessProbe) issues.push({ object: pod.ref, path: `${path}.livenessProbe`, message: 'no liveness probe' });
        const liveness = container.livenessProbe?.httpGet?.path;
        if (servesProbes(container) && liveness !== '/ok') issues.push({ object: pod.ref, path: `${path}.livenessProbe`, message: `liveness must probe /ok, not ${liveness}` });
        return issues;
      }),
  );

/** CPU and memory requests and limits on every container, init containers and Jobs included. */
const resources: Check = (objects) =>
  podTemplates(objects).flatMap((pod) =>
    containersOf(pod).flatMap(({ container, path }) =>
      (['requests', 'limits'] as const).flatMap((kind) =>
        (['cpu', 'memory'] as const)
          .filter((r) => container.resources?.[kind]?.[r] === undefined)
          .map((r) => ({ object: pod.ref, path: `${path}.resources.${kind}.${r}`, message: `no ${r} ${kind === 'requests' ? 'request' : 'limit'}` })),
      ),
    ),
  );

/** Every container runs as a non-root user without privilege escalation. */
const nonRoot: Check = (objects) =>
  podTemplates(objects).flatMap((pod) =>
    containersOf(pod).flatMap(({ container, path }) => {
      const issues = [];
      const runAsNonRoot = container.securityContext?.runAsNonRoot ?? pod.spec.securityContext?.runAsNonRoot;
      const runAsUser = container.securityContext?.runAsUser ?? pod.spec.securityContext?.runAsUser;
      if (runAsNonRoot !== true) issues.push({ object: pod.ref, path: `${path}.securityContext.runAsNonRoot`, message: 'must run as non-root (runAsNonRoot: true)' });
      if (runAsUser === 0) issues.push({ object: pod.ref, path: `${path}.securityContext.runAsUser`, message: 'runs as uid 0' });
      if (container.securityContext?.allowPrivilegeEscalation !== false) {
        issues.push({ object: pod.ref, path: `${path}.securityContext.allowPrivilegeEscalation`, message: 'must be false' });
      }
      return issues;
    }),
  );

/** Every container's root filesystem is read-only; what a service writes goes to a mounted volume. */
const readOnlyRoot: Check = (objects) =>
  podTemplates(objects).flatMap((pod) =>
    containersOf(pod)
      .filter(({ container }) => container.securityContext?.readOnlyRootFilesystem !== true)
      .map(({ path }) => ({ object: pod.ref, path: `${path}.securityContext.readOnlyRootFilesystem`, message: 'root filesystem must be read-only' })),
  );

/** `name:tag` or `name@sha256:…`, never `latest` or no tag. */
export function imageProblem(image: unknown): string | undefined {
  if (typeof image !== 'string' || !image) return 'no image';
  if (image.includes('@sha256:')) return undefined;
  const tag = /:([\w][\w.-]{0,127})$/.exec(image.slice(image.lastIndexOf('/') + 1))?.[1];
  if (!tag) return `image ${image} has no tag (it means latest)`;
  if (tag === 'latest') return `image ${image} is tagged latest`;
  return undefined;
}

/** Every image (and every `*_IMAGE` variable naming one, such as the Agent Server image) is pinned. */
const imageTags: Check = (objects) =>
  podTemplates(objects).flatMap((pod) =>
    containersOf(pod).flatMap(({ container, path }) => {
      const images = [{ image: container.image, at: `${path}.image` }];
      ((container.env ?? []) as Json[]).forEach((e, i) => {
        if (/_IMAGE$/.test(e.name) && e.value !== undefined) images.push({ image: e.value, at: `${path}.env[${i}]` });
      });
      return images.flatMap(({ image, at }) => {
        const problem = imageProblem(image);
        return problem ? [{ object: pod.ref, path: at, message: problem }] : [];
      });
    }),
  );

/** Every Service selects the pods of some workload in its namespace, on ports those pods declare. */
const serviceSelectors: Check = (objects) => {
  const pods = podTemplates(objects);
  return objects
    .filter((o) => o.kind === 'Service')
    .flatMap((service) => {
      const spec = (service as Json).spec ?? {};
      const matching = pods.filter((p) => p.namespace === namespaceOf(service) && selectsPlain(spec.selector, p.labels));
      if (!matching.length) return [{ object: refOf(service), path: 'spec.selector', message: `selects no pod (${JSON.stringify(spec.selector ?? {})})` }];
      return ((spec.ports ?? []) as Json[]).flatMap((port, i) => {
        const target = port.targetPort ?? port.port;
        const served = matching.some((p) =>
          containersOf(p).some(({ container }) => ((container.ports ?? []) as Json[]).some((cp) => cp.name === target || cp.containerPort === target)),
        );
        return served ? [] : [{ object: refOf(service), path: `spec.ports[${i}].targetPort`, message: `no selected pod declares port ${target}` }];
      });
    });
};

/** Every ConfigMap and Secret (and key) a pod refers to exists, rendered or declared as provided externally. */
const configReferences: Check = (objects, context) => {
  const keys = new Map<string, Set<string>>();
  for (const o of objects) {
    if (o.kind !== 'ConfigMap' && o.kind !== 'Secret') continue;
    const data = { ...((o as Json).data ?? {}), ...((o as Json).stringData ?? {}), ...((o as Json).binaryData ?? {}) };
    keys.set(`${namespaceOf(o)}/${refOf(o)}`, new Set(Object.keys(data)));
  }
  const lookup = (namespace: string, kind: string, name: string) => keys.get(`${namespace}/${kind}/${name}`) ?? (context.external?.[`${kind}/${name}`] ? new Set(context.external[`${kind}/${name}`]) : undefined);
  return podTemplates(objects).flatMap((pod) => {
    const issues: Omit<PolicyIssue, 'check'>[] = [];
    const need = (kind: string, name: string, key: string | undefined, path: string, optional?: boolean) => {
      if (optional) return;
      const found = lookup(pod.namespace, kind, name);
      if (!found) issues.push({ object: pod.ref, path, message: `${kind} ${name} does not exist` });
      else if (key !== undefined && !found.has(key)) issues.push({ object: pod.ref, path, message: `${kind} ${name} has no key ${key}` });
    };
    for (const { container, path } of containersOf(pod)) {
      ((container.env ?? []) as Json[]).forEach((e, i) => {
        const ref = e.valueFrom?.secretKeyRef ?? e.valueFrom?.configMapKeyRef;
        if (ref) need(e.valueFrom.secretKeyRef ? 'Secret' : 'ConfigMap', ref.name, ref.key, `${path}.env[${i}]`, ref.optional);
      });
      ((container.envFrom ?? []) as Json[]).forEach((e, i) => {
        const ref = e.secretRef ?? e.configMapRef;
        if (ref) need(e.secretRef ? 'Secret' : 'ConfigMap', ref.name, undefined, `${path}.envFrom[${i}]`, ref.optional);
      });
    }
    ((pod.spec.volumes ?? []) as Json[]).forEach((v, i) => {
      const source = v.secret ? { kind: 'Secret', name: v.secret.secretName, s: v.secret } : v.configMap ? { kind: 'ConfigMap', name: v.configMap.name, s: v.configMap } : undefined;
      if (!source) return;
      need(source.kind, source.name, undefined, `volumes[${i}]`, source.s.optional);
      ((source.s.items ?? []) as Json[]).forEach((item, j) => need(source.kind, source.name, item.key, `volumes[${i}].items[${j}]`, source.s.optional));
    });
    return issues;
  });
};

const budgets = (objects: KubernetesObject[]) => objects.filter((o) => o.kind === 'PodDisruptionBudget');

/** Every long-running workload has a PodDisruptionBudget selecting its pods. */
const disruptionBudgets: Check = (objects) =>
  longRunning(objects)
    .filter((pod) => !budgets(objects).some((b) => namespaceOf(b) === pod.namespace && selects((b as Json).spec?.selector, pod.labels)))
    .map((pod) => ({ object: pod.ref, path: 'metadata.name', message: 'no PodDisruptionBudget selects its pods' }));

/** Every long-running workload spreads its pods over nodes and zones (constraints selecting its own pods). */
const topologySpread: Check = (objects) =>
  longRunning(objects).flatMap((pod) => {
    const constraints = (pod.spec.topologySpreadConstraints ?? []) as Json[];
    const keys = constraints.filter((c) => selects(c.labelSelector, pod.labels)).map((c) => c.topologyKey as string);
    return ['kubernetes.io/hostname', 'topology.kubernetes.io/zone']
      .filter((key) => !keys.includes(key))
      .map((key) => ({ object: pod.ref, path: 'spec.template.spec.topologySpreadConstraints', message: `does not spread its pods over ${key}` }));
  });

/** What a container needs after SIGTERM: its preStop wait, its runs' grace (Agent Server), the HTTP close. */
export function drainSeconds(container: Json): number {
  if (!servesProbes(container)) return preStopSeconds(container);
  const runGrace = ((container.env ?? []) as Json[]).find((e) => e.name === 'RUN_SHUTDOWN_GRACE')?.value;
  const runSeconds = runGrace === undefined ? 0 : Math.ceil((parseDuration(String(runGrace)) ?? 0) / 1000);
  return preStopSeconds(container) + runSeconds + HTTP_CLOSE_SECONDS;
}

/** terminationGracePeriodSeconds is set, and longer than each container's drain (else the kubelet kills mid-drain). */
const terminationGrace: Check = (objects) =>
  longRunning(objects).flatMap((pod: PodTemplate) => {
    const grace = pod.spec.terminationGracePeriodSeconds as number | undefined;
    if (grace === undefined) return [{ object: pod.ref, path: 'spec.template.spec.terminationGracePeriodSeconds', message: 'not set' }];
    return containersOf(pod)
      .filter(({ init, container }) => !init && drainSeconds(container) >= grace)
      .map(({ container, path }) => ({
        object: pod.ref,
        path: 'spec.template.spec.terminationGracePeriodSeconds',
        message: `${grace} s does not cover ${path}'s drain of ${drainSeconds(container)} s`,
      }));
  });

/** Each autoscaler targets a workload that exists, and no workload has two (an HPA and a ScaledObject fight). */
const scalerTargets: Check = (objects) => {
  const scalers = objects.filter((o) => o.kind === 'HorizontalPodAutoscaler' || o.kind === 'ScaledObject');
  const targets = new Map<string, string>();
  return scalers.flatMap((s) => {
    const ref = (s as Json).spec?.scaleTargetRef ?? {};
    const key = `${namespaceOf(s)}/${ref.kind ?? 'Deployment'}/${ref.name}`;
    const issues = [];
    if (!objects.some((o) => `${namespaceOf(o)}/${refOf(o)}` === key)) issues.push({ object: refOf(s), path: 'spec.scaleTargetRef', message: `${key} does not exist` });
    const other = targets.get(key);
    if (other) issues.push({ object: refOf(s), path: 'spec.scaleTargetRef', message: `${key} is also scaled by ${other}` });
    targets.set(key, refOf(s));
    return issues;
  });
};

export const POLICY_CHECKS = {
  probes,
  resources,
  nonRoot,
  readOnlyRoot,
  imageTags,
  serviceSelectors,
  configReferences,
  disruptionBudgets,
  topologySpread,
  terminationGrace,
  scalerTargets,
} satisfies Record<string, Check>;

export type PolicyCheckName = keyof typeof POLICY_CHECKS;

/** Runs the named checks (default: all) over a rendered manifest set. */
export function checkPolicies(objects: KubernetesObject[], context: PolicyContext = {}, only?: PolicyCheckName[]): PolicyIssue[] {
  const names = only ?? (Object.keys(POLICY_CHECKS) as PolicyCheckName[]);
  return names.flatMap((check) => POLICY_CHECKS[check](objects, context).map((issue) => ({ check, ...issue })));
}
