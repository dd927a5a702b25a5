import { NotFoundError, UnavailableError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import type { Deployment, DeploymentsRepository } from '@platform/control-plane-data-access';

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
