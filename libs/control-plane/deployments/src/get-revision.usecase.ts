import { NotFoundError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import type { Revision } from '@platform/control-plane-data-access';
import type { DeploymentsContext } from './deployments-context';
import { getDeployment } from './get-deployment.usecase';

export async function getRevision(ctx: DeploymentsContext, tenantId: string, deploymentId: string, revisionId: string): Promise<Revision> {
  const deployment = await getDeployment(ctx.store, tenantId, deploymentId);
  const revision = isUuid(revisionId) ? await ctx.store.findRevision(deployment.id, revisionId.toLowerCase()) : null;
  if (!revision) throw new NotFoundError(`Revision ${revisionId} not found`);
  return revision;
}
