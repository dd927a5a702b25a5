import { validateSchema, type KubernetesObject } from '@platform/k8s-manifests';

/** A problem in one of resource_spec's Kubernetes lists: which list, where in it (`[0].emptyDirr`), what. */
export interface ResourceSpecIssue {
  key: 'volumes' | 'volume_mounts' | 'init_containers' | 'sidecars';
  path: string;
  message: string;
}

const KEYS = ['volumes', 'volume_mounts', 'init_containers', 'sidecars'] as const;

// Where each list lands in the pod the driver renders; the issue paths map back to resource_spec's keys.
const PLACES: [RegExp, ResourceSpecIssue['key'], (m: RegExpExecArray) => string][] = [
  [/^spec\.containers\[0\]\.volumeMounts(.*)$/, 'volume_mounts', (m) => m[1]],
  [/^spec\.containers\[(\d+)\](.*)$/, 'sidecars', (m) => `[${Number(m[1]) - 1}]${m[2]}`],
  [/^spec\.initContainers(.*)$/, 'init_containers', (m) => m[1]],
  [/^spec\.volumes(.*)$/, 'volumes', (m) => m[1]],
];

/**
 * Checks the Kubernetes objects a resource_spec carries (volumes, mounts, init containers, sidecars) against the
 * pinned Kubernetes schemas, placed in a pod as the driver places them, so a typo is found before any rollout.
 */
export async function resourceSpecIssues(resourceSpec: Record<string, unknown> | undefined): Promise<ResourceSpecIssue[]> {
  const list = (key: (typeof KEYS)[number]) => (Array.isArray(resourceSpec?.[key]) ? (resourceSpec?.[key] as unknown[]) : []);
  if (!KEYS.some((key) => list(key).length)) return [];
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'resource-spec' },
    spec: {
      containers: [{ name: 'agent-server', image: 'agent-server', volumeMounts: list('volume_mounts') }, ...list('sidecars')],
      initContainers: list('init_containers'),
      volumes: list('volumes'),
    },
  } as KubernetesObject;
  return (await validateSchema(pod)).flatMap((issue) => {
    for (const [pattern, key, rest] of PLACES) {
      const m = pattern.exec(issue.path);
      if (m) return [{ key, path: rest(m), message: issue.message }];
    }
    return [];
  });
}
