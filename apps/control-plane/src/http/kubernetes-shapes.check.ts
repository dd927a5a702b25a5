import { ValidationError, type ValidationIssue } from '@platform/errors';
import { loadKubernetesClient, validateAgainstModel } from '@platform/control-plane-drivers';

const SHAPES: Record<string, string> = {
  volumes: 'Array<V1Volume>',
  volume_mounts: 'Array<V1VolumeMount>',
  init_containers: 'Array<V1Container>',
  sidecars: 'Array<V1Container>',
};

/** `[0].persistentVolumeClaim.claimName` → `[0, 'persistentVolumeClaim', 'claimName']`. */
function locOf(path: string): (string | number)[] {
  return path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/**
 * Checks the Kubernetes objects a resource_spec carries (volumes, mounts, init containers, sidecars) against the
 * Kubernetes schemas, so a typo is a 422 at the API and not a failed rollout later.
 */
export async function checkKubernetesShapes(resourceSpec: Record<string, unknown> | undefined, base: (string | number)[]): Promise<void> {
  const present = Object.keys(SHAPES).filter((key) => Array.isArray(resourceSpec?.[key]) && (resourceSpec?.[key] as unknown[]).length > 0);
  if (!present.length) return;
  const k8s = await loadKubernetesClient();
  const issues: ValidationIssue[] = present.flatMap((key) =>
    validateAgainstModel(k8s, resourceSpec?.[key], SHAPES[key]).map((issue) => ({
      loc: ['body', ...base, key, ...locOf(issue.path === '(root)' ? '' : issue.path)],
      msg: issue.message,
      type: 'value_error',
    })),
  );
  if (issues.length) throw new ValidationError(issues);
}
