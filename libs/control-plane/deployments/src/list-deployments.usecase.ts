import type { DeploymentFilter, DeploymentsRepository } from '@platform/control-plane-data-access';

/** A page of the tenant's deployments and the offset of the next page. */
export async function listDeployments(store: DeploymentsRepository, filter: DeploymentFilter) {
  const resources = await store.list(filter);
  return { resources, offset: filter.offset + resources.length };
}
