// An Agent Server the platform process runs itself (the dev launcher's example agent, the e2e tests' servers),
// made reachable through the gateway at `/deployments/{id}`: a READY deployment of the control plane that
// points at the server's URL and has no revisions for the reconciler to drive.
import type { RunningControlPlane } from '../../apps/control-plane/src/service';

export interface StaticDeployment {
  tenantId: string;
  name: string;
  upstreamUrl: string;
  /**
   * Every replica serving it, when several Agent Servers share its database (recorded as its serving instances,
   * which the gateway moves a wait or join to when one fails); default just `upstreamUrl`.
   */
  replicaUrls?: string[];
  /**
   * Its id: the one its Agent Server was started for (DEPLOYMENT_ID, with that deployment's DEPLOYMENT_KEY: the
   * gateway signs for this id and the server verifies nothing else). Default: a new id (a server that serves none).
   */
  id?: string;
}

/**
 * Creates the deployment, or points an existing one of that name and workspace at `upstreamUrl` (ports change
 * between starts); returns its id.
 */
export async function upsertStaticDeployment(controlPlane: Pick<RunningControlPlane, 'prisma'>, deployment: StaticDeployment): Promise<string> {
  const { tenantId, name, upstreamUrl, replicaUrls = [upstreamUrl], id } = deployment;
  const { prisma } = controlPlane;
  const create = { tenantId, name, source: 'external_docker', sourceConfig: {}, sourceRevisionConfig: {}, status: 'READY', upstreamUrl };
  let row: { id: string };
  if (id) {
    // The name moves to this id: a static deployment of the name under another id (an earlier start's) goes.
    await prisma.deployment.deleteMany({ where: { tenantId, name, id: { not: id }, source: 'external_docker', revisions: { none: {} } } });
    row = await prisma.deployment.upsert({ where: { id }, update: { upstreamUrl, status: 'READY' }, create: { id, ...create } });
  } else {
    row = await prisma.deployment.upsert({ where: { tenantId_name: { tenantId, name } }, update: { upstreamUrl, status: 'READY' }, create });
  }
  // Instances of a driver of their own, which no deployment driver adopts or stops.
  await prisma.$transaction([
    prisma.instance.deleteMany({ where: { deploymentId: row.id, driver: STATIC_DRIVER } }),
    prisma.instance.createMany({
      data: replicaUrls.map((url) => ({ deploymentId: row.id, revisionId: NO_REVISION, driver: STATIC_DRIVER, state: 'serving', url })),
    }),
  ]);
  return row.id;
}

const STATIC_DRIVER = 'static';
// Nothing was built for it: its instances belong to no revision.
const NO_REVISION = '00000000-0000-0000-0000-000000000000';

/** The deployment named `name` in any workspace (the launcher's, on a restart that prints no bootstrap). */
export async function findStaticDeployment(controlPlane: RunningControlPlane, name: string): Promise<{ id: string; tenantId: string } | null> {
  return controlPlane.prisma.deployment.findFirst({ where: { name }, select: { id: true, tenantId: true }, orderBy: { createdAt: 'asc' } });
}
