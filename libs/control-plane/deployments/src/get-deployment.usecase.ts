import { NotFoundError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import type { Deployment, DeploymentsRepository } from '@platform/control-plane-data-access';

/** One deployment of the tenant; another tenant's deployment is as absent as an unknown one. */
export async function getDeployment(store: DeploymentsRepository, tenantId: string, id: string): Promise<Deployment> {
  const deployment = isUuid(id) ? await store.find(id.toLowerCase(), tenantId) : null;
  if (!deployment) throw new NotFoundError(`Deployment ${id} not found`);
  return deployment;
}
