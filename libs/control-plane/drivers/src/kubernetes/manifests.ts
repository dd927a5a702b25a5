import { createHash } from 'node:crypto';
import path from 'node:path';
import type {
  V1Container,
  V1Deployment,
  V1EnvVar,
  V1LocalObjectReference,
  V1Secret,
  V1Service,
  V1Volume,
  V1VolumeMount,
  V2HorizontalPodAutoscaler,
} from '@kubernetes/client-node' with { 'resolution-mode': 'import' };
import type { DeploySpec } from '../driver';

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
}

export interface RenderedManifests {
  namespace: string;
  name: string;
  secret: V1Secret;
  service: V1Service;
  deployment: V1Deployment;
  /** Present when resource_spec.max_scale exceeds min_scale. */
  autoscaler?: V2HorizontalPodAutoscaler;
}

export const PORT = 8000;
const SOURCE_DIR = '/deps/app';
export const LABEL_DEPLOYMENT = 'agent-platform.dev/deployment-id';
const LABEL_MANAGED = 'app.kubernetes.io/managed-by';
const MANAGER = 'agent-platform-control-plane';

/** Object names of a deployment: `agent-<id>` is a valid DNS-1035 label (Service) and subdomain (others). */
export function resourceName(deploymentId: string): string {
  return `agent-${deploymentId}`;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const list = <T>(v: unknown) => (Array.isArray(v) ? (v as T[]) : []);
const strings = (v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string')) as Record<string, string> : {};

function resources(spec: Record<string, unknown>) {
  const requests: Record<string, string> = {};
  const limits: Record<string, string> = {};
  if (num(spec.cpu) !== undefined) requests.cpu = String(spec.cpu);
  if (num(spec.memory_mb) !== undefined) requests.memory = `${spec.memory_mb}Mi`;
  if (num(spec.cpu_limit) !== undefined) limits.cpu = String(spec.cpu_limit);
  if (num(spec.memory_limit_mb) !== undefined) limits.memory = `${spec.memory_limit_mb}Mi`;
  return { ...(Object.keys(requests).length ? { requests } : {}), ...(Object.keys(limits).length ? { limits } : {}) };
}

/** A digest of what the pods run with, so a changed secret or revision rolls the pods. */
function digest(values: unknown): string {
  return createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 16);
}

/**
 * The Secret (environment), Service and Deployment (plus an autoscaler when asked) of one deployment. github
 * sources run on the platform image: an init container fetches the built commit (and installs dependencies when
 * the build did), the Agent Server loads its langgraph.json. external_docker runs the given image.
 */
export function renderManifests(spec: DeploySpec, options: ManifestOptions): RenderedManifests {
  const namespace = spec.namespace ?? options.namespace;
  const name = resourceName(spec.deploymentId);
  const rs = spec.resourceSpec ?? {};
  const selector = { [LABEL_DEPLOYMENT]: spec.deploymentId };
  const labels = { 'app.kubernetes.io/name': 'agent-server', 'app.kubernetes.io/instance': name, [LABEL_MANAGED]: MANAGER, ...selector };
  const secretName = `${name}-env`;
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
  const env: V1EnvVar[] = [
    { name: 'HOST', value: '0.0.0.0' },
    { name: 'PORT', value: String(PORT) },
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
      env: [{ name: 'REPO_URL', value: spec.repoUrl }, { name: 'COMMIT_SHA', value: spec.commitSha }, { name: 'GIT_TERMINAL_PROMPT', value: '0' }, ...auth],
      volumeMounts: [sourceMount],
    });
    if (spec.installCommand) {
      initContainers.push({
        name: 'install-dependencies',
        image: options.agentServerImage,
        imagePullPolicy: options.imagePullPolicy,
        command: ['sh', '-c', spec.installCommand],
        workingDir: path.posix.dirname(configInPod as string),
        volumeMounts: [sourceMount],
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
    readinessProbe: { httpGet: { path: '/ok', port: 'http' }, periodSeconds: 5, failureThreshold: 3 },
    livenessProbe: { httpGet: { path: '/ok', port: 'http' }, initialDelaySeconds: 15, periodSeconds: 10, failureThreshold: 6 },
    resources: resources(rs),
    volumeMounts: [...(github ? [sourceMount] : []), ...list<V1VolumeMount>(rs.volume_mounts)],
  };
  const volumes: V1Volume[] = [...(github ? [{ name: 'app-source', emptyDir: {} }] : []), ...list<V1Volume>(rs.volumes)];
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
            ...strings(rs.annotations),
            'agent-platform.dev/revision-id': spec.revisionId,
            'agent-platform.dev/config-digest': digest(secretData),
          },
        },
        spec: {
          ...(typeof rs.service_account_name === 'string' ? { serviceAccountName: rs.service_account_name } : {}),
          imagePullSecrets: list<V1LocalObjectReference>(rs.image_pull_secrets),
          initContainers,
          containers: [server, ...list<V1Container>(rs.sidecars)],
          volumes,
        },
      },
    },
  };

  const autoscaler: V2HorizontalPodAutoscaler | undefined =
    autoscale
      ? {
          apiVersion: 'autoscaling/v2',
          kind: 'HorizontalPodAutoscaler',
          metadata: { name, namespace, labels },
          spec: {
            scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
            minReplicas: minScale,
            maxReplicas: maxScale as number,
            metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
          },
        }
      : undefined;
  return { namespace, name, secret, service, deployment, autoscaler };
}
