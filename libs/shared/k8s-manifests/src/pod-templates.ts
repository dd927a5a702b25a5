import type { KubernetesObject } from './schema-validation';

/* eslint-disable @typescript-eslint/no-explicit-any -- manifests are checked as plain JSON */
export type Json = Record<string, any>;

/** A pod template and the workload that owns it. */
export interface PodTemplate {
  owner: KubernetesObject;
  /** `Deployment/gateway`. */
  ref: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Json;
  /** Whether its pods run until stopped (Deployment, StatefulSet) rather than to completion (Job). */
  longRunning: boolean;
}

const WORKLOADS: Record<string, { template: (o: Json) => Json | undefined; longRunning: boolean }> = {
  Deployment: { template: (o) => o.spec?.template, longRunning: true },
  StatefulSet: { template: (o) => o.spec?.template, longRunning: true },
  Job: { template: (o) => o.spec?.template, longRunning: false },
};

export const refOf = (o: KubernetesObject) => `${o.kind}/${o.metadata?.name}`;
export const namespaceOf = (o: KubernetesObject, fallback = 'default') => o.metadata?.namespace ?? fallback;

export function podTemplates(objects: KubernetesObject[]): PodTemplate[] {
  return objects.flatMap((owner) => {
    const workload = owner.kind ? WORKLOADS[owner.kind] : undefined;
    const template = workload?.template(owner as Json);
    if (!workload || !template) return [];
    return [{ owner, ref: refOf(owner), namespace: namespaceOf(owner), labels: template.metadata?.labels ?? {}, spec: template.spec ?? {}, longRunning: workload.longRunning }];
  });
}

/** Every container of a pod, init containers included, with its JSON path. */
export function containersOf(pod: PodTemplate): { container: Json; path: string; init: boolean }[] {
  const list = (key: 'containers' | 'initContainers') =>
    ((pod.spec[key] ?? []) as Json[]).map((container, i) => ({ container, path: `${key}[${i}]`, init: key === 'initContainers' }));
  return [...list('initContainers'), ...list('containers')];
}

/** Whether a `matchLabels` (and `matchExpressions` In/NotIn/Exists/DoesNotExist) selector selects these labels. */
export function selects(selector: Json | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  const match = Object.entries((selector.matchLabels ?? {}) as Record<string, string>).every(([k, v]) => labels[k] === v);
  const expressions = ((selector.matchExpressions ?? []) as Json[]).every((e) => {
    const value = labels[e.key];
    switch (e.operator) {
      case 'In':
        return value !== undefined && (e.values as string[]).includes(value);
      case 'NotIn':
        return value === undefined || !(e.values as string[]).includes(value);
      case 'Exists':
        return value !== undefined;
      case 'DoesNotExist':
        return value === undefined;
      default:
        return false;
    }
  });
  return match && expressions;
}

/** A Service's plain `key: value` selector. */
export function selectsPlain(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  return !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** Seconds a container's preStop hook waits (`sleep N` or the native sleep action), 0 without one. */
export function preStopSeconds(container: Json): number {
  const hook = container.lifecycle?.preStop;
  if (hook?.sleep?.seconds !== undefined) return Number(hook.sleep.seconds);
  const command = (hook?.exec?.command ?? []) as string[];
  return command[0] === 'sleep' ? Number(command[1]) || 0 : 0;
}
