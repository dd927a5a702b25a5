import type { V1LabelSelector, V1ObjectMeta, V1PodDisruptionBudget, V2HorizontalPodAutoscaler } from '@kubernetes/client-node' with { 'resolution-mode': 'import' };

/** A KEDA ScaledObject (keda.sh/v1alpha1), as far as the driver renders one. */
export interface KedaScaledObject {
  apiVersion: 'keda.sh/v1alpha1';
  kind: 'ScaledObject';
  metadata: V1ObjectMeta;
  spec: {
    scaleTargetRef: { name: string };
    minReplicaCount: number;
    maxReplicaCount: number;
    pollingInterval: number;
    cooldownPeriod: number;
    triggers: { type: string; metricType?: string; metadata: Record<string, string> }[];
  };
}

/**
 * A NetworkPolicy as the API server reads it. The client's model names the rules' `from` `_from` (a reserved word);
 * `clientForm` converts when it is sent.
 */
export interface NetworkPolicyManifest {
  apiVersion: 'networking.k8s.io/v1';
  kind: 'NetworkPolicy';
  metadata: V1ObjectMeta;
  spec: {
    podSelector: V1LabelSelector;
    policyTypes: ('Ingress' | 'Egress')[];
    ingress: { from: Record<string, V1LabelSelector>[]; ports: NetworkPort[] }[];
    egress: { to?: Record<string, V1LabelSelector>[]; ports: NetworkPort[] }[];
  };
}
type NetworkPort = { protocol: string; port: number | string };

/** The object in the form the Kubernetes client serializes (`_from` for a NetworkPolicy rule's `from`). */
export function clientForm<T extends { kind?: string }>(object: T): T {
  if (object.kind !== 'NetworkPolicy') return object;
  const policy = object as unknown as NetworkPolicyManifest;
  return { ...object, spec: { ...policy.spec, ingress: policy.spec.ingress.map(({ from, ...rule }) => ({ ...rule, _from: from })) } };
}

type Meta = { name: string; namespace: string; labels: Record<string, string> };

// Who may reach an Agent Server: the gateway (it proxies /deployments/{id}/*) and Prometheus (its /metrics).
const GATEWAY = { 'app.kubernetes.io/name': 'gateway' };
const MONITORING_NAMESPACE = 'monitoring';
const GATEWAY_PORT = 8080;
const CPU_TARGET = 80;

/** Evictions (drains, upgrades) take one pod at a time; with one replica a drain is never blocked. */
export function renderDisruptionBudget(meta: Meta, selector: Record<string, string>): V1PodDisruptionBudget {
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta, spec: { maxUnavailable: 1, selector: { matchLabels: selector } } };
}

/**
 * The platform's rules for an Agent Server: in, only the gateway and Prometheus on its HTTP port; out, the gateway
 * (traces), Postgres (its database) and HTTPS (model providers, tools, webhooks, the git host of its source). DNS is
 * the namespace's policy (k8s/base/network-policies.yaml).
 */
export function renderNetworkPolicy(meta: Meta, selector: Record<string, string>): NetworkPolicyManifest {
  const http = [{ protocol: 'TCP', port: 'http' }];
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: meta,
    spec: {
      podSelector: { matchLabels: selector },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [
        { from: [{ podSelector: { matchLabels: GATEWAY } }], ports: http },
        { from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': MONITORING_NAMESPACE } } }], ports: http },
      ],
      egress: [
        { to: [{ podSelector: { matchLabels: GATEWAY } }], ports: [{ protocol: 'TCP', port: GATEWAY_PORT }] },
        { ports: [{ protocol: 'TCP', port: 5432 }] },
        { ports: [{ protocol: 'TCP', port: 443 }] },
      ],
    },
  };
}

export interface AutoscalerSettings {
  minScale: number;
  maxScale: number;
  /** Runs one replica executes at once (N_JOBS_PER_WORKER): KEDA's target of queued + running runs per replica. */
  runsPerReplica: number;
  kind: 'hpa' | 'keda';
  prometheusUrl?: string;
}

/**
 * An HPA on CPU, or a KEDA ScaledObject on CPU and on the deployment's demand: its queued and running runs, which
 * every replica exports from the shared Postgres queue (the same numbers from each, hence `max`).
 */
export function renderAutoscaler(meta: Meta, deploymentId: string, settings: AutoscalerSettings): V2HorizontalPodAutoscaler | KedaScaledObject {
  if (settings.kind === 'hpa') {
    return {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: meta,
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: meta.name },
        minReplicas: settings.minScale,
        maxReplicas: settings.maxScale,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: CPU_TARGET } } }],
      },
    };
  }
  if (!settings.prometheusUrl) throw new Error('KEDA autoscaling needs the Prometheus URL its scaler queries');
  const series = (metric: string) => `max(${metric}{deployment_id="${deploymentId}"})`;
  return {
    apiVersion: 'keda.sh/v1alpha1',
    kind: 'ScaledObject',
    metadata: meta,
    spec: {
      scaleTargetRef: { name: meta.name },
      minReplicaCount: settings.minScale,
      maxReplicaCount: settings.maxScale,
      pollingInterval: 15,
      // Scaling down stops runs at a superstep boundary and hands them to another replica: not too eagerly.
      cooldownPeriod: 300,
      triggers: [
        {
          type: 'prometheus',
          metadata: {
            serverAddress: settings.prometheusUrl,
            query: `${series('agent_server_runs_queued')} + ${series('agent_server_runs_running')}`,
            threshold: String(settings.runsPerReplica),
          },
        },
        { type: 'cpu', metricType: 'Utilization', metadata: { value: String(CPU_TARGET) } },
      ],
    },
  };
}
