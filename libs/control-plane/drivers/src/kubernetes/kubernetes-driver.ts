import type { KubeConfig, KubernetesObject, KubernetesObjectApi, V1Deployment } from '@kubernetes/client-node' with { 'resolution-mode': 'import' };
import { validateSchema } from '@platform/k8s-manifests';
import type { Logger } from '@platform/logging';
import { DeployError, type DeploySpec, type DeploymentDriver } from '../driver';
import { loadKubernetesClient, type KubernetesModule } from './kubernetes-client';
import { PORT, renderManifests, resourceName, type ManifestOptions, type RenderedManifests } from './manifests';
import { clientForm } from './scaling-and-network';

export interface KubernetesDriverOptions extends Omit<ManifestOptions, 'progressDeadlineSeconds'> {
  /** Where the API server is and how to authenticate (in-cluster, a kubeconfig file, or explicit options). */
  kubeConfig: (k8s: KubernetesModule) => KubeConfig;
  logger: Logger;
  /** How long a rollout may take before the revision is DEPLOY_FAILED. */
  rolloutTimeoutMs: number;
  pollIntervalMs?: number;
  clusterDomain?: string;
}

const FIELD_MANAGER = 'agent-platform-control-plane';
const HPA = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' };
const SCALED_OBJECT = { apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject' };

/** Everything applied for a deployment, in order (the autoscaler last: its target must exist). */
function objectsOf(rendered: RenderedManifests): KubernetesObject[] {
  const { secret, service, deployment, disruptionBudget, networkPolicy, autoscaler } = rendered;
  return [secret, service, deployment, disruptionBudget, networkPolicy, ...(autoscaler ? [autoscaler] : [])];
}

function statusCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown; statusCode?: unknown }).code ?? (err as { statusCode?: unknown }).statusCode;
  return typeof code === 'number' ? code : undefined;
}

function apiMessage(err: unknown): string {
  const body = (err as { body?: unknown }).body;
  if (typeof body === 'string') {
    try {
      return (JSON.parse(body) as { message?: string }).message ?? body;
    } catch {
      return body;
    }
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * Runs each deployment as a Kubernetes Deployment + Service + Secret + PodDisruptionBudget + NetworkPolicy (and an
 * HPA or a KEDA ScaledObject when resource_spec asks for autoscaling), applied with server-side apply through the
 * Kubernetes API, then waits for the rollout. The Service gives a stable upstream URL; rolling updates with
 * maxUnavailable 0 swap revisions without downtime.
 */
export class KubernetesDriver implements DeploymentDriver {
  readonly kind = 'kubernetes' as const;
  private client?: Promise<{ k8s: KubernetesModule; api: KubernetesObjectApi }>;

  constructor(private readonly options: KubernetesDriverOptions) {}

  /** What would be applied for `spec`, validated against the Kubernetes schemas. */
  async render(spec: DeploySpec): Promise<RenderedManifests> {
    if (!spec.env.DATABASE_URL) {
      throw new DeployError('The kubernetes driver needs a Postgres server for deployment databases (set DEPLOYMENTS_DATABASE_URL)');
    }
    let rendered: RenderedManifests;
    try {
      rendered = renderManifests(spec, { ...this.options, progressDeadlineSeconds: Math.max(60, Math.ceil(this.options.rolloutTimeoutMs / 1000)) });
    } catch (err) {
      throw new DeployError((err as Error).message);
    }
    const issues: string[] = [];
    for (const o of objectsOf(rendered)) issues.push(...(await validateSchema(o)).map((i) => `${o.kind}.${i.path}: ${i.message}`));
    if (issues.length) throw new DeployError(`Invalid Kubernetes manifests: ${issues.join('; ')}`);
    return rendered;
  }

  async deploy(spec: DeploySpec, signal: AbortSignal): Promise<{ upstreamUrl: string }> {
    const rendered = await this.render(spec);
    await this.apply(rendered);
    await this.waitForRollout(rendered, signal);
    return { upstreamUrl: this.urlOf(rendered) };
  }

  async destroy(deploymentId: string, namespace?: string): Promise<void> {
    const { api } = await this.connect();
    const name = resourceName(deploymentId);
    const ns = namespace ?? this.options.namespace;
    const targets: KubernetesObject[] = [
      ...this.autoscalerKinds().map((kind) => ({ ...kind, metadata: { name, namespace: ns } })),
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: ns } },
      { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, namespace: ns } },
      { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name, namespace: ns } },
      { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns } },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-env`, namespace: ns } },
    ];
    for (const target of targets) await this.remove(api, target);
  }

  async resume(active: DeploySpec[]): Promise<Map<string, string>> {
    // Loading the client is the slowest step of a first call: a new leader pays it now, not inside its first deploy.
    await this.connect();
    // The cluster keeps the workloads running; re-applying restores anything removed behind our back.
    const urls = new Map<string, string>();
    for (const spec of active) {
      try {
        const rendered = await this.render(spec);
        await this.apply(rendered);
        urls.set(spec.deploymentId, this.urlOf(rendered));
      } catch (err) {
        this.options.logger.error({ err, deployment_id: spec.deploymentId }, 'could not re-apply deployment');
      }
    }
    return urls;
  }

  async release(): Promise<void> {
    // Nothing to hand over: the state lives in the cluster.
  }

  async close(): Promise<void> {
    // Workloads keep running without the control plane.
  }

  private urlOf(rendered: RenderedManifests): string {
    return `http://${rendered.name}.${rendered.namespace}.svc.${this.options.clusterDomain ?? 'cluster.local'}:${PORT}`;
  }

  private connect() {
    this.client ??= loadKubernetesClient().then((k8s) => ({ k8s, api: k8s.KubernetesObjectApi.makeApiClient(this.options.kubeConfig(k8s)) }));
    return this.client;
  }

  /** The autoscaler kinds this driver may have created: HPAs always, ScaledObjects where KEDA is in use. */
  private autoscalerKinds() {
    return this.options.autoscaler === 'keda' ? [SCALED_OBJECT, HPA] : [HPA];
  }

  private async apply(rendered: RenderedManifests): Promise<void> {
    const { k8s, api } = await this.connect();
    const send = async (object: KubernetesObject) => {
      try {
        await api.patch(clientForm(object), undefined, undefined, FIELD_MANAGER, true, k8s.PatchStrategy.ServerSideApply);
      } catch (err) {
        throw new DeployError(`Kubernetes refused ${object.kind} ${object.metadata?.name}: ${apiMessage(err)}`);
      }
    };
    const objects = objectsOf(rendered);
    for (const object of objects.filter((o) => o !== rendered.autoscaler)) await send(object);
    // An autoscaler of another kind (or any, with fixed scaling) would fight over the replica count; KEDA refuses a
    // ScaledObject for a Deployment an HPA scales, so the old one goes first.
    for (const kind of this.autoscalerKinds().filter((k) => k.kind !== rendered.autoscaler?.kind)) {
      await this.remove(api, { ...kind, metadata: { name: rendered.name, namespace: rendered.namespace } });
    }
    if (rendered.autoscaler) await send(rendered.autoscaler);
  }

  private async remove(api: KubernetesObjectApi, target: KubernetesObject): Promise<void> {
    try {
      await api.delete(target, undefined, undefined, undefined, undefined, 'Background');
    } catch (err) {
      if (statusCode(err) !== 404) throw err;
    }
  }

  /** Done when the new generation is observed and every replica is updated and available; failed on ProgressDeadlineExceeded. */
  private async waitForRollout(rendered: RenderedManifests, signal: AbortSignal): Promise<void> {
    const { api } = await this.connect();
    const deadline = Date.now() + this.options.rolloutTimeoutMs;
    const header = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: rendered.name, namespace: rendered.namespace } };
    for (;;) {
      if (signal.aborted) throw new DeployError('Deploy aborted');
      const current = await api.read<V1Deployment>(header);
      const status = current.status ?? {};
      const generation = current.metadata?.generation ?? 0;
      if ((status.observedGeneration ?? 0) >= generation) {
        const failed = status.conditions?.find(
          (c) => (c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded') || (c.type === 'ReplicaFailure' && c.status === 'True'),
        );
        if (failed) throw new DeployError(`Rollout of ${rendered.name} failed: ${failed.reason}: ${failed.message ?? ''}`.trim());
        const wanted = current.spec?.replicas ?? 1;
        const updated = status.updatedReplicas ?? 0;
        if (updated >= wanted && (status.availableReplicas ?? 0) >= wanted && (status.replicas ?? 0) <= updated) return;
      }
      if (Date.now() >= deadline) {
        throw new DeployError(
          `Rollout of ${rendered.name} did not complete within ${Math.round(this.options.rolloutTimeoutMs / 1000)} s ` +
            `(${status.updatedReplicas ?? 0} updated, ${status.availableReplicas ?? 0} available)`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, this.options.pollIntervalMs ?? 2_000));
    }
  }
}
