import { ValidationError, type ValidationIssue } from '@platform/errors';

/** What the operator allows deployments to use. */
export interface DeploymentRules {
  /** `repo_url` must start with one of these (e.g. `https://github.com/`); `*` allows any. */
  allowedRepoUrls: string[];
  /** The prefix of a tenant's uploaded sources (`POST /v2/sources/{name}`): always allowed to that tenant alone. */
  uploadsUrl?: (tenantId: string) => string;
}

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
]);

export function repoUrlAllowed(url: string, rules: DeploymentRules, tenantId?: string): boolean {
  if (url.startsWith('-')) return false;
  if (tenantId && rules.uploadsUrl && url.startsWith(rules.uploadsUrl(tenantId)) && !url.includes('/../')) return true;
  return rules.allowedRepoUrls.some((prefix) => prefix === '*' || url.startsWith(prefix));
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
