import { resolveRepoLocation, type SourceRules } from '@platform/control-plane-builder';
import { ValidationError, type ValidationIssue } from '@platform/errors';

/**
 * What the operator allows deployments to use: `allowedRepoUrls` (`GIT_ALLOWED_URLS`, prefixes of the canonical URL or
 * path at segment boundaries), a tenant's own uploads under `uploadsRoot` (no one else's), never `protectedPaths`.
 */
export type DeploymentRules = SourceRules;

/** Variables the platform sets on every Agent Server; a secret may not replace them. */
export const RESERVED_SECRET_NAMES = new Set([
  'HOST',
  'PORT',
  'GRPC_PORT',
  'INTERNAL_SECRET',
  'DATABASE_URL',
  'DATA_DIR',
  'MIGRATE_ON_START',
  'DEPLOYMENT_ID',
  'DEPLOYMENT_KEY',
  'DEPLOYMENT_KEYS_PREVIOUS',
  'LANGGRAPH_CONFIG_PATH',
  // The operator's egress allowlist: a deployment may not widen where its webhooks go.
  'EGRESS_ALLOWED_CIDRS',
  'EGRESS_ALLOWED_HOSTS',
]);

/** Whether `url`, decoded and canonicalized (see resolveRepoLocation), is a source `tenantId` may deploy. */
export function repoUrlAllowed(url: string, rules: DeploymentRules, tenantId?: string): boolean {
  return resolveRepoLocation(url, rules, tenantId) !== undefined;
}

/** Collects field problems and throws them together as one 422. */
export class Issues {
  private readonly issues: ValidationIssue[] = [];

  add(loc: (string | number)[], msg: string, type = 'value_error'): void {
    this.issues.push({ loc: ['body', ...loc], msg, type });
  }

  missing(loc: (string | number)[]): void {
    this.add(loc, 'Field required', 'missing');
  }

  throwIfAny(): void {
    if (this.issues.length) throw new ValidationError(this.issues);
  }
}
