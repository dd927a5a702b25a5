import { NotFoundError, UnavailableError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import type { Deployment, DeploymentFilter, DeploymentsRepository } from '@platform/control-plane-data-access';

/** A page of the tenant's deployments and the offset of the next page. */
export async function listDeployments(store: DeploymentsRepository, filter: DeploymentFilter) {
  const resources = await store.list(filter);
  return { resources, offset: filter.offset + resources.length };
}

/** One deployment of the tenant; another tenant's deployment is as absent as an unknown one. */
export async function getDeployment(store: DeploymentsRepository, tenantId: string, id: string): Promise<Deployment> {
  const deployment = isUuid(id) ? await store.find(id.toLowerCase(), tenantId) : null;
  if (!deployment) throw new NotFoundError(`Deployment ${id} not found`);
  return deployment;
}

/**
 * Where the gateway sends `/deployments/{id}/*`: the deployment's running Agent Server, and the URLs of its serving
 * instances (replicas) for the gateway to move a wait or join to when one fails.
 * `tenantId` empty means any tenant (internal callers); otherwise a foreign deployment is not found.
 */
export async function resolveDeploymentUpstream(
  store: DeploymentsRepository,
  id: string,
  tenantId: string,
): Promise<Deployment & { upstreamUrl: string; replicaUrls: string[] }> {
  const deployment = isUuid(id) ? await store.find(id.toLowerCase(), tenantId || undefined) : null;
  if (!deployment || deployment.status === 'AWAITING_DELETE') throw new NotFoundError(`Deployment ${id} not found`);
  if (!deployment.upstreamUrl) throw new UnavailableError(`Deployment ${id} has no running Agent Server yet`);
  return { ...deployment, upstreamUrl: deployment.upstreamUrl, replicaUrls: await store.replicaUrls(deployment.id) };
}
