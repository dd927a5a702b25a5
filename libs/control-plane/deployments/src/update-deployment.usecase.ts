import { InputError } from '@platform/errors';
import type { Deployment } from '@platform/control-plane-data-access';
import { Issues } from './deployment-rules';
import { BUILD_SOURCE_CONFIG, IMMUTABLE_SOURCE_CONFIG, type DeploymentsContext, type SecretInput } from './deployments-context';
import { getDeployment } from './get-deployment.usecase';
import { checkSecrets, checkSource } from './create-deployment.usecase';

export interface DeploymentPatch {
  name?: string;
  source?: string;
  sourceConfig?: Record<string, unknown>;
  sourceRevisionConfig?: Record<string, unknown>;
  secrets?: SecretInput[];
}

const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Immutable fields may be repeated unchanged; a different value is refused with a 400 naming the field. */
function refuseImmutableChanges(current: Deployment, patch: DeploymentPatch): void {
  const refused: string[] = [];
  if (patch.name !== undefined && patch.name !== current.name) refused.push('name');
  if (patch.source !== undefined && patch.source !== current.source) refused.push('source');
  for (const key of IMMUTABLE_SOURCE_CONFIG) {
    const value = patch.sourceConfig?.[key];
    if (value !== undefined && value !== null && !sameJson(value, current.sourceConfig[key])) refused.push(`source_config.${key}`);
  }
  if (refused.length) throw new InputError(`Immutable field(s) cannot be changed after creation: ${refused.join(', ')}`);
}

/**
 * Applies a PATCH. A non-null field of `source_revision_config`, a changed build input (`install_command`,
 * `build_command`) or a different set of secrets makes a new revision; other changes (resources) are stored and
 * take effect with the next revision.
 */
export async function updateDeployment(ctx: DeploymentsContext, tenantId: string, id: string, patch: DeploymentPatch): Promise<Deployment> {
  const current = await getDeployment(ctx.store, tenantId, id);
  if (current.status === 'AWAITING_DELETE') throw new InputError(`Deployment ${id} is being deleted`);
  refuseImmutableChanges(current, patch);

  const revisionChanges = defined(patch.sourceRevisionConfig ?? {});
  const sourceConfig = patch.sourceConfig ? { ...current.sourceConfig, ...defined(patch.sourceConfig) } : undefined;
  const sourceRevisionConfig = Object.keys(revisionChanges).length
    ? (({ repo_commit_sha: _sha, ...rest }) => ({ ...rest, ...revisionChanges }))(current.sourceRevisionConfig)
    : undefined;

  const issues = new Issues();
  if (sourceConfig || sourceRevisionConfig) {
    await checkSource(ctx, tenantId, current.source, sourceConfig ?? current.sourceConfig, sourceRevisionConfig ?? current.sourceRevisionConfig, issues);
  }
  if (patch.secrets) checkSecrets(patch.secrets, issues);
  issues.throwIfAny();

  const secretsChanged = patch.secrets !== undefined && !(await sameSecrets(ctx, current.id, patch.secrets));
  const buildChanged = sourceConfig !== undefined && BUILD_SOURCE_CONFIG.some((key) => !sameJson(sourceConfig[key], current.sourceConfig[key]));
  const newRevision = sourceRevisionConfig !== undefined || secretsChanged || buildChanged;
  const { deployment } = await ctx.store.update(current.id, {
    sourceConfig,
    sourceRevisionConfig,
    secrets: secretsChanged ? patch.secrets?.map((s) => ({ name: s.name, sealed: ctx.box.seal(s.value) })) : undefined,
    newRevision,
  });
  if (newRevision) ctx.notify?.();
  return deployment;
}

async function sameSecrets(ctx: DeploymentsContext, id: string, next: SecretInput[]): Promise<boolean> {
  const stored = await ctx.store.sealedSecrets(id);
  if (stored.length !== next.length) return false;
  const values = new Map(stored.map((s) => [s.name, ctx.box.open(s.sealed)]));
  return next.every((s) => values.get(s.name) === s.value);
}

/** Asks the reconciler to remove the deployment; GET shows AWAITING_DELETE until it is gone. */
export async function deleteDeployment(ctx: DeploymentsContext, tenantId: string, id: string): Promise<void> {
  const current = await getDeployment(ctx.store, tenantId, id);
  if (current.status !== 'AWAITING_DELETE') await ctx.store.markDeleting(current.id);
  ctx.notify?.();
}
