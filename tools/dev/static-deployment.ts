// An Agent Server the platform process runs itself (the dev launcher's example agent, the e2e tests' servers),
// made reachable through the gateway at `/deployments/{id}`: a READY deployment of the control plane that
// points at the server's URL and has no revisions for the reconciler to drive.
import type { RunningControlPlane } from '../../apps/control-plane/src/service';

export interface StaticDeployment {
  tenantId: string;
  name: string;
  upstreamUrl: string;
}

/**
 * Creates the deployment, or points an existing one of that name and workspace at `upstreamUrl` (ports change
 * between starts); returns its id.
 */
export async function upsertStaticDeployment(controlPlane: RunningControlPlane, deployment: StaticDeployment): Promise<string> {
  const { tenantId, name, upstreamUrl } = deployment;
  const row = await controlPlane.prisma.deployment.upsert({
    where: { tenantId_name: { tenantId, name } },
    update: { upstreamUrl, status: 'READY' },
    create: { tenantId, name, source: 'external_docker', sourceConfig: {}, sourceRevisionConfig: {}, status: 'READY', upstreamUrl },
  });
  return row.id;
}

/** The deployment named `name` in any workspace (the launcher's, on a restart that prints no bootstrap). */
export async function findStaticDeployment(controlPlane: RunningControlPlane, name: string): Promise<{ id: string; tenantId: string } | null> {
  return controlPlane.prisma.deployment.findFirst({ where: { name }, select: { id: true, tenantId: true }, orderBy: { createdAt: 'asc' } });
}
