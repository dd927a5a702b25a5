import { InputError } from '@platform/errors';
import type { Deployment } from '@platform/control-plane-data-access';
import type { DeploymentsContext } from './deployments-context';
import { getDeployment } from './get-deployment.usecase';
import { getRevision } from './get-revision.usecase';

/** A new revision built from that revision's configuration (its recorded commit, when it has one). */
export async function redeployRevision(ctx: DeploymentsContext, tenantId: string, deploymentId: string, revisionId: string): Promise<Deployment> {
  const revision = await getRevision(ctx, tenantId, deploymentId, revisionId);
  const deployment = await getDeployment(ctx.store, tenantId, deploymentId);
  if (deployment.status === 'AWAITING_DELETE') throw new InputError(`Deployment ${deploymentId} is being deleted`);
  const created = await ctx.store.addRevision(revision.deploymentId, {
    sourceConfig: deployment.sourceConfig,
    sourceRevisionConfig: revision.sourceRevisionConfig,
  });
  ctx.notify?.();
  return created.deployment;
}
