import type { RevisionFilter } from '@platform/control-plane-data-access';
import type { DeploymentsContext } from './deployments-context';
import { getDeployment } from './get-deployment.usecase';

export async function listRevisions(ctx: DeploymentsContext, tenantId: string, deploymentId: string, filter: RevisionFilter) {
  const deployment = await getDeployment(ctx.store, tenantId, deploymentId);
  const resources = await ctx.store.listRevisions(deployment.id, filter);
  return { resources, offset: filter.offset + resources.length };
}
