import type { DeploymentsHandlers } from '@platform/contracts';
import type { DeploymentsRepository } from '@platform/control-plane-data-access';
import { resolveDeploymentUpstream } from '@platform/control-plane-deployments';
import { unary } from '@platform/grpc';

/** `controlplane.v1.Deployments`: the gateway's routing table for `/deployments/{id}`. */
export function deploymentsHandlers(store: DeploymentsRepository): DeploymentsHandlers {
  return {
    ResolveDeployment: unary(async (req) => {
      const deployment = await resolveDeploymentUpstream(store, req.deployment_id, req.tenant_id);
      return {
        deployment_id: deployment.id,
        tenant_id: deployment.tenantId,
        name: deployment.name,
        upstream_url: deployment.upstreamUrl,
        status: deployment.status,
        revision_id: deployment.activeRevisionId ?? '',
        replica_urls: deployment.replicaUrls,
      };
    }),
  };
}
