import { createHash } from 'node:crypto';
import path from 'node:path';
import type {
  V1Container,
  V1Deployment,
  V1EnvVar,
  V1LocalObjectReference,
  V1PodDisruptionBudget,
  V1Secret,
  V1SecurityContext,
  V1Service,
  V1Volume,
  V1VolumeMount,
  V2HorizontalPodAutoscaler,
} from '@kubernetes/client-node' with { 'resolution-mode': 'import' };
import { assertTenantEnv, type DeploySpec } from '../driver';
import { renderAutoscaler, renderDisruptionBudget, renderNetworkPolicy, type KedaScaledObject, type NetworkPolicyManifest } from './scaling-and-network';

export interface ManifestOptions {
  namespace: string;
  /** Image of the platform (runs github-source deployments: the Agent Server plus the checkout). */
  agentServerImage: string;
  agentServerCommand: string[];
  /** Image with git for the init container that fetches the source. */
  gitImage: string;
  imagePullPolicy?: string;
  /** Seconds before Kubernetes marks a rollout failed (ProgressDeadlineExceeded). */
  progressDeadlineSeconds: number;
  /**
   * What scales a deployment whose max_scale exceeds min_scale: an HPA on CPU, or a KEDA ScaledObject on CPU and
   * its queued + running runs as Prometheus (at `kedaPrometheusUrl`) reads them from the replicas' /metrics.
   */
  autoscaler?: 'hpa' | 'keda';
  kedaPrometheusUrl?: string;
}

export interface RenderedManifests {
  namespace: string;
  name: string;
  secret: V1Secret;
  service: V1Service;
  deployment: V1Deployment;
  disruptionBudget: V1PodDisruptionBudget;
  networkPolicy: NetworkPolicyManifest;
  /** Present when resource_spec.max_scale exceeds min_scale: an HPA, or a KEDA ScaledObject. */
  autoscaler?: V2HorizontalPodAutoscaler | KedaScaledObject;
}

export const PORT = 8000;
const SOURCE_DIR = '/deps/app';
export const LABEL_DEPLOYMENT = 'agent-platform.dev/deployment-id';
const LABEL_MANAGED = 'app.kubernetes.io/managed-by';
const MANAGER = 'agent-platform-control-plane';
/** On SIGTERM runs get this long to reach a superstep boundary before they are handed back (RUN_SHUTDOWN_GRACE). */
const RUN_SHUTDOWN_GRACE_SECONDS = 10;
/** Until the endpoint removal has reached the gateway (its Service's endpoints), the pod keeps serving. */
const PRE_STOP_SECONDS = 5;
// preStop, then the runs' grace, then the HTTP close (10 s) and the database's; with room to spare.
const TERMINATION_GRACE_SECONDS = PRE_STOP_SECONDS + RUN_SHUTDOWN_GRACE_SECONDS + 10 + 15;
/** Requests and limits of a deployment whose resource_spec names none (one replica runs 10 runs at once). */
const DEFAULT_RESOURCES = { cpu: '500m', memory: '512Mi', cpuLimit: '2', memoryLimit: '1Gi' };
const UID = 1000; // the platform image's `node` user
/** Non-root, no privilege escalation, no capabilities, read-only root (writes go to emptyDirs). */
const CONTAINER_SECURITY: V1SecurityContext = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
};

/** Object names of a deployment: `agent-<id>` is a valid DNS-1035 label (Service) and subdomain (others). */
export function resourceName(deploymentId: string): string {
  return `agent-${deploymentId}`;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const list = <T>(v: unknown) => (Array.isArray(v) ? (v as T[]) : []);
const strings = (v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string')) as Record<string, string> : {};

function resources(spec: Record<string, unknown>) {
  const cpu = num(spec.cpu) !== undefined ? String(spec.cpu) : DEFAULT_RESOURCES.cpu;
  const memory = num(spec.memory_mb) !== undefined ? `${spec.memory_mb}Mi` : DEFAULT_RESOURCES.memory;
  const cpuLimit = num(spec.cpu_limit) !== undefined ? String(spec.cpu_limit) : DEFAULT_RESOURCES.cpuLimit;
  const memoryLimit = num(spec.memory_limit_mb) !== undefined ? `${spec.memory_limit_mb}Mi` : DEFAULT_RESOURCES.memoryLimit;
  return { requests: { cpu, memory }, limits: { cpu: cpuLimit, memory: memoryLimit } };
}

/** A digest of what the pods run with, so a changed secret or revision rolls the pods. */
function digest(values: unknown): string {
  return createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 16);
}

/**
 * The Secret (environment), Service, Deployment, PodDisruptionBudget and NetworkPolicy (plus an autoscaler when
 * asked) of one deployment, with the platform's pod rules: probes, requests and limits, a non-root read-only pod,
 * a grace period covering the Agent Server's drain (runs handed back, leases released), spread over nodes. github
 * sources run on the platform image: an init container fetches the built commit (and installs dependencies when
 * the build did), the Agent Server loads its langgraph.json. external_docker runs the given image.
 */
export function renderManifests(spec: DeploySpec, options: ManifestOptions): RenderedManifests {
  const namespace = spec.namespace ?? options.namespace;
  const name = resourceName(spec.deploymentId);
  const rs = spec.resourceSpec ?? {};
  const selector = { [LABEL_DEPLOYMENT]: spec.deploymentId };
  const labels = {
    'app.kubernetes.io/name': 'agent-server',
    'app.kubernetes.io/instance': name,
    'app.kubernetes.io/part-of': 'agent-platform',
    [LABEL_MANAGED]: MANAGER,
    ...selector,
  };
  const secretName = `${name}-env`;
  // The pod's Secret holds the deployment's own credentials (DEPLOYMENT_KEY, its tracing key), never a platform key.
  assertTenantEnv(spec.env);
  const secretData: Record<string, string> = { ...spec.env };
  if (spec.repoToken) secretData.GIT_AUTH_HEADER = `Authorization: Basic ${Buffer.from(`x-access-token:${spec.repoToken}`).toString('base64')}`;

  const secret: V1Secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: secretName, namespace, labels },
    type: 'Opaque',
    stringData: secretData,
  };
  const service: V1Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace, labels },
    spec: { type: 'ClusterIP', selector, ports: [{ name: 'http', port: PORT, targetPort: 'http', protocol: 'TCP' }] },
  };

  const github = spec.source === 'github';
  if (github && (!spec.repoUrl || !spec.commitSha || !spec.checkoutDir || !spec.configPath)) {
    throw new Error('a github deployment needs repoUrl, commitSha, checkoutDir and configPath');
  }
  const configInPod = github ? path.posix.join(SOURCE_DIR, path.relative(spec.checkoutDir as string, spec.configPath as string).split(path.sep).join('/')) : undefined;
  const sourceMount: V1VolumeMount = { name: 'app-source', mountPath: SOURCE_DIR };
  // The root file system is read-only: caches (tsx, npm, git) and temporary files go to /tmp.
  const tmpMount: V1VolumeMount = { name: 'tmp', mountPath: '/tmp' };
  const podResources = resources(rs);
  const env: V1EnvVar[] = [
    { name: 'HOST', value: '0.0.0.0' },
    { name: 'PORT', value: String(PORT) },
    { name: 'RUN_SHUTDOWN_GRACE', value: `${RUN_SHUTDOWN_GRACE_SECONDS}s` },
    { name: 'HOME', value: '/tmp' },
    ...(configInPod ? [{ name: 'LANGGRAPH_CONFIG_PATH', value: configInPod }] : []),
  ];
  const initContainers: V1Container[] = [];
  if (github) {
    const auth: V1EnvVar[] = spec.repoToken
      ? [
          { name: 'GIT_CONFIG_COUNT', value: '1' },
          { name: 'GIT_CONFIG_KEY_0', value: 'http.extraHeader' },
          { name: 'GIT_CONFIG_VALUE_0', valueFrom: { secretKeyRef: { name: secretName, key: 'GIT_AUTH_HEADER' } } },
        ]
      : [];
    initContainers.push({
      name: 'fetch-source',
      image: options.gitImage,
      imagePullPolicy: options.imagePullPolicy,
      command: ['sh', '-c', `set -e; git init -q ${SOURCE_DIR}; cd ${SOURCE_DIR}; git fetch -q --depth 1 -- "$REPO_URL" "$COMMIT_SHA"; git checkout -q FETCH_HEAD`],
      env: [
        { name: 'REPO_URL', value: spec.repoUrl },
        { name: 'COMMIT_SHA', value: spec.commitSha },
        { name: 'GIT_TERMINAL_PROMPT', value: '0' },
        { name: 'HOME', value: '/tmp' },
        ...auth,
      ],
      resources: podResources,
      securityContext: CONTAINER_SECURITY,
      volumeMounts: [sourceMount, tmpMount],
    });
    if (spec.installCommand) {
      initContainers.push({
        name: 'install-dependencies',
        image: options.agentServerImage,
        imagePullPolicy: options.imagePullPolicy,
        command: ['sh', '-c', spec.installCommand],
        workingDir: path.posix.dirname(configInPod as string),
        env: [{ name: 'HOME', value: '/tmp' }],
        resources: podResources,
        securityContext: CONTAINER_SECURITY,
        volumeMounts: [sourceMount, tmpMount],
      });
    }
  }
  initContainers.push(...list<V1Container>(rs.init_containers));

  const server: V1Container = {
    name: 'agent-server',
    image: github ? options.agentServerImage : spec.imageUri,
    imagePullPolicy: options.imagePullPolicy,
    ...(github ? { command: options.agentServerCommand } : {}),
    env,
    envFrom: [{ secretRef: { name: secretName } }],
    ports: [{ name: 'http', containerPort: PORT, protocol: 'TCP' }],
    // Loading the graphs (TypeScript compiled on the fly) may take a while: the startup probe allows 5 minutes.
    startupProbe: { httpGet: { path: '/ok', port: 'http' }, periodSeconds: 5, failureThreshold: 60 },
    readinessProbe: { httpGet: { path: '/ready', port: 'http' }, periodSeconds: 5, failureThreshold: 2 },
    livenessProbe: { httpGet: { path: '/ok', port: 'http' }, periodSeconds: 10, failureThreshold: 6 },
    lifecycle: { preStop: { exec: { command: ['sleep', String(PRE_STOP_SECONDS)] } } },
    resources: podResources,
    securityContext: CONTAINER_SECURITY,
    volumeMounts: [...(github ? [sourceMount] : []), tmpMount, ...list<V1VolumeMount>(rs.volume_mounts)],
  };
  const volumes: V1Volume[] = [
    ...(github ? [{ name: 'app-source', emptyDir: {} }] : []),
    { name: 'tmp', emptyDir: { sizeLimit: '1Gi' } },
    ...list<V1Volume>(rs.volumes),
  ];
  const minScale = num(rs.min_scale) ?? 1;
  const maxScale = num(rs.max_scale);
  const autoscale = maxScale !== undefined && maxScale > minScale;

  const deployment: V1Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels: { ...labels, ...strings(rs.labels) }, annotations: strings(rs.annotations) },
    spec: {
      // With an autoscaler the replica count is its to set; applying one here would fight it.
      ...(autoscale ? {} : { replicas: minScale }),
      selector: { matchLabels: selector },
      progressDeadlineSeconds: options.progressDeadlineSeconds,
      // No downtime: a new pod must be ready before an old one goes.
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: {
        metadata: {
          labels: { ...labels, ...strings(rs.labels) },
          annotations: {
            // Prometheus's conventional pod discovery: the queue depth KEDA scales on is read from here.
            'prometheus.io/scrape': 'true',
            'prometheus.io/port': String(PORT),
            'prometheus.io/path': '/metrics',
            ...strings(rs.annotations),
            'agent-platform.dev/revision-id': spec.revisionId,
            'agent-platform.dev/config-digest': digest(secretData),
          },
        },
        spec: {
          ...(typeof rs.service_account_name === 'string' ? { serviceAccountName: rs.service_account_name } : { automountServiceAccountToken: false }),
          terminationGracePeriodSeconds: TERMINATION_GRACE_SECONDS,
          securityContext: { runAsNonRoot: true, runAsUser: UID, runAsGroup: UID, fsGroup: UID, seccompProfile: { type: 'RuntimeDefault' } },
          // Replicas of one deployment on different nodes and zones where the cluster has them.
          topologySpreadConstraints: ['topology.kubernetes.io/zone', 'kubernetes.io/hostname'].map((topologyKey) => ({
            maxSkew: 1,
            topologyKey,
            whenUnsatisfiable: 'ScheduleAnyway',
            labelSelector: { matchLabels: selector },
          })),
          imagePullSecrets: list<V1LocalObjectReference>(rs.image_pull_secrets),
          initContainers,
          containers: [server, ...list<V1Container>(rs.sidecars)],
          volumes,
        },
      },
    },
  };

  const meta = { name, namespace, labels };
  const runsPerReplica = Number(spec.env.N_JOBS_PER_WORKER) || 10;
  const autoscaler = autoscale
    ? renderAutoscaler(meta, spec.deploymentId, { minScale, maxScale: maxScale as number, runsPerReplica, kind: options.autoscaler ?? 'hpa', prometheusUrl: options.kedaPrometheusUrl })
    : undefined;
  const disruptionBudget = renderDisruptionBudget(meta, selector);
  const networkPolicy = renderNetworkPolicy(meta, selector);
  return { namespace, name, secret, service, deployment, disruptionBudget, networkPolicy, autoscaler };
}
