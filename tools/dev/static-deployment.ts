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
  /**
   * The tracing key its Agent Servers send traces with (minted by the gateway for its workspace, kept sealed with
   * the control plane's box as a deployed one's is): deleting the deployment revokes it.
   */
  tracing?: StaticDeploymentTracing;
}

export interface StaticDeploymentTracing {
  organizationId: string;
  keyId: string;
  /** The key in plain text (sealed before it is stored). */
  key: string;
}

/**
 * Creates the deployment, or points an existing one of that name and workspace at `upstreamUrl` (ports change
 * between starts); returns its id.
 */
export async function upsertStaticDeployment(
  controlPlane: Pick<RunningControlPlane, 'prisma'> & Partial<Pick<RunningControlPlane, 'box'>>,
  deployment: StaticDeployment,
): Promise<string> {
  const { tenantId, name, upstreamUrl, replicaUrls = [upstreamUrl], id, tracing } = deployment;
  const { prisma, box } = controlPlane;
  if (tracing && !box) throw new Error("a static deployment's tracing key is kept sealed: it needs the control plane's box");
  const traced = tracing && box ? { organizationId: tracing.organizationId, tracingKeyId: tracing.keyId, tracingKey: box.seal(tracing.key) } : {};
  const create = { tenantId, name, source: 'external_docker', sourceConfig: {}, sourceRevisionConfig: {}, status: 'READY', upstreamUrl, ...traced };
  const update = { upstreamUrl, status: 'READY', ...traced };
  let row: { id: string };
  if (id) {
    // The name moves to this id: a static deployment of the name under another id (an earlier start's) goes.
    await prisma.deployment.deleteMany({ where: { ...replacedBy(id, tenantId, name) } });
    // It follows its workspace too (a gateway whose database was reset bootstraps another).
    row = await prisma.deployment.upsert({ where: { id }, update: { ...update, tenantId }, create: { id, ...create } });
  } else {
    row = await prisma.deployment.upsert({ where: { tenantId_name: { tenantId, name } }, update, create });
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
const replacedBy = (id: string, tenantId: string, name: string) => ({ tenantId, name, id: { not: id }, source: 'external_docker', revisions: { none: {} } });

/** The tracing keys of the static deployments that registering `name` under `id` deletes (to be revoked). */
export async function replacedTracingKeys(
  controlPlane: Pick<RunningControlPlane, 'prisma'>,
  deployment: { id: string; tenantId: string; name: string },
): Promise<{ tenantId: string; organizationId: string; keyId: string }[]> {
  const rows = await controlPlane.prisma.deployment.findMany({
    where: { ...replacedBy(deployment.id, deployment.tenantId, deployment.name), tracingKeyId: { not: null }, organizationId: { not: null } },
    select: { tenantId: true, organizationId: true, tracingKeyId: true },
  });
  return rows.map((r) => ({ tenantId: r.tenantId, organizationId: r.organizationId as string, keyId: r.tracingKeyId as string }));
}

/** Deployment `id` as an earlier start registered it: its workspace, and its tracing key when it has one. */
export async function storedStaticDeployment(
  controlPlane: Pick<RunningControlPlane, 'prisma' | 'box'>,
  id: string,
): Promise<{ tenantId: string; tracing?: StaticDeploymentTracing } | null> {
  const row = await controlPlane.prisma.deployment.findUnique({ where: { id }, select: { tenantId: true, organizationId: true, tracingKeyId: true, tracingKey: true } });
  if (!row) return null;
  const { organizationId, tracingKeyId, tracingKey } = row;
  return { tenantId: row.tenantId, tracing: organizationId && tracingKeyId && tracingKey ? { organizationId, keyId: tracingKeyId, key: controlPlane.box.open(tracingKey) } : undefined };
}
// Nothing was built for it: its instances belong to no revision.
const NO_REVISION = '00000000-0000-0000-0000-000000000000';

/** The deployment named `name` in any workspace (the launcher's, on a restart that prints no bootstrap). */
export async function findStaticDeployment(controlPlane: Pick<RunningControlPlane, 'prisma'>, name: string): Promise<{ id: string; tenantId: string } | null> {
  return controlPlane.prisma.deployment.findFirst({ where: { name }, select: { id: true, tenantId: true }, orderBy: { createdAt: 'asc' } });
}
