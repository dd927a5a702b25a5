import type { Deployment, NewDeployment, Revision } from '@platform/control-plane-data-access';
import { Issues, RESERVED_SECRET_NAMES, remoteHostRefused, repoUrlAllowed } from './deployment-rules';
import type { DeploymentsContext, SecretInput } from './deployments-context';

/** A deployment to create: what is stored, with its secrets still in clear (they are sealed on the way in). */
export type CreateDeploymentInput = Omit<NewDeployment, 'secrets'> & { secrets: SecretInput[] };

/** Checks what the request schema cannot: the source's required fields, allowed URLs, the integration, secret names. */
export async function checkSource(
  ctx: DeploymentsContext,
  tenantId: string,
  source: string,
  sourceConfig: Record<string, unknown>,
  sourceRevisionConfig: Record<string, unknown>,
  issues: Issues,
): Promise<void> {
  if (source === 'github') {
    const repoUrl = sourceConfig.repo_url;
    if (typeof repoUrl !== 'string' || !repoUrl) issues.missing(['source_config', 'repo_url']);
    else if (!repoUrlAllowed(repoUrl, ctx.rules, tenantId)) issues.add(['source_config', 'repo_url'], 'repo_url is not a repository location this control plane allows');
    else {
      const refused = await remoteHostRefused(repoUrl, ctx.rules);
      if (refused) issues.add(['source_config', 'repo_url'], refused);
    }
    if (typeof sourceRevisionConfig.repo_ref !== 'string' || !sourceRevisionConfig.repo_ref) issues.missing(['source_revision_config', 'repo_ref']);
    if (sourceRevisionConfig.image_uri != null) issues.add(['source_revision_config', 'image_uri'], 'image_uri applies to external_docker deployments only');
  } else if (source === 'external_docker') {
    if (typeof sourceRevisionConfig.image_uri !== 'string' || !sourceRevisionConfig.image_uri) issues.missing(['source_revision_config', 'image_uri']);
    if (sourceRevisionConfig.repo_ref != null) issues.add(['source_revision_config', 'repo_ref'], 'repo_ref applies to github deployments only');
  }
  const integrationId = sourceConfig.integration_id;
  if (typeof integrationId === 'string' && ctx.integrationExists && !(await ctx.integrationExists(tenantId, integrationId))) {
    issues.add(['source_config', 'integration_id'], 'integration_id is not an OAuth integration of this workspace');
  }
}

export function checkSecrets(secrets: SecretInput[], issues: Issues): void {
  const seen = new Set<string>();
  secrets.forEach((s, i) => {
    if (RESERVED_SECRET_NAMES.has(s.name)) issues.add(['secrets', i, 'name'], `${s.name} is set by the platform and cannot be a secret`);
    if (seen.has(s.name)) issues.add(['secrets', i, 'name'], `duplicate secret name ${s.name}`);
    seen.add(s.name);
  });
}

/** A deployment and its first revision (CREATING); the reconciler takes it from there. */
export async function createDeployment(ctx: DeploymentsContext, input: CreateDeploymentInput): Promise<{ deployment: Deployment; revision: Revision }> {
  const issues = new Issues();
  await checkSource(ctx, input.tenantId, input.source, input.sourceConfig, input.sourceRevisionConfig, issues);
  checkSecrets(input.secrets, issues);
  issues.throwIfAny();
  const sourceConfig = { deployment_type: 'prod', ...input.sourceConfig };
  const sourceRevisionConfig =
    input.source === 'github' ? { langgraph_config_path: 'langgraph.json', ...input.sourceRevisionConfig } : { ...input.sourceRevisionConfig };
  const created = await ctx.store.create({
    tenantId: input.tenantId,
    organizationId: input.organizationId,
    name: input.name,
    source: input.source,
    sourceConfig,
    sourceRevisionConfig,
    secrets: input.secrets.map((s) => ({ name: s.name, sealed: ctx.box.seal(s.value) })),
  });
  ctx.notify?.();
  return created;
}
