import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import type { KubernetesObject } from './schema-validation';

/** `kubectl` with its built-in kustomize, if installed (`kubectl kustomize` renders an overlay without a cluster). */
export function kubectlVersion(): string | undefined {
  const run = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** Renders a kustomization directory into its objects; throws with kustomize's message when it cannot. */
export async function renderKustomization(dir: string): Promise<KubernetesObject[]> {
  const run = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`kubectl kustomize ${dir} failed: ${run.stderr.trim()}`);
  // Plain JSON, as the API server receives it (the Kubernetes client's loader would turn `from` into `_from`).
  return parseAllDocuments(run.stdout)
    .map((doc) => doc.toJSON() as KubernetesObject | null)
    .filter((o): o is KubernetesObject => !!o);
}
