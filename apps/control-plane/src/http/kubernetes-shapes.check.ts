import { ValidationError, type ValidationIssue } from '@platform/errors';
import { resourceSpecIssues } from '@platform/control-plane-drivers';

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
  const issues: ValidationIssue[] = (await resourceSpecIssues(resourceSpec)).map((issue) => ({
    loc: ['body', ...base, issue.key, ...locOf(issue.path)],
    msg: issue.message,
    type: 'value_error',
  }));
  if (issues.length) throw new ValidationError(issues);
}
