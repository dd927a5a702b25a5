import type { PrismaClient } from '@platform/control-plane-data-access';
import type { Deployment, DeploymentFilter, DeploymentStatus, DeploymentStore } from './deployment';

type Row = Awaited<ReturnType<PrismaClient['deployment']['findUniqueOrThrow']>>;

function toDeployment(row: Row): Deployment {
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    source: row.source,
    sourceConfig: (row.sourceConfig ?? {}) as Record<string, unknown>,
    sourceRevisionConfig: (row.sourceRevisionConfig ?? {}) as Record<string, unknown>,
    status: row.status as DeploymentStatus,
    upstreamUrl: row.upstreamUrl,
    latestRevisionId: row.latestRevisionId,
    activeRevisionId: row.activeRevisionId,
    secretNames: [],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Deployments in the control plane's database. */
export class PrismaDeploymentStore implements DeploymentStore {
  constructor(private readonly prisma: PrismaClient) {}

  async list(filter: DeploymentFilter): Promise<Deployment[]> {
    const rows = await this.prisma.deployment.findMany({
      where: {
        tenantId: filter.tenantId,
        ...(filter.nameContains ? { name: { contains: filter.nameContains, mode: 'insensitive' as const } } : {}),
        ...(filter.statuses?.length ? { status: { in: filter.statuses } } : {}),
        ...(filter.ids?.length ? { id: { in: filter.ids } } : {}),
        ...(filter.deploymentType ? { sourceConfig: { path: ['deployment_type'], equals: filter.deploymentType } } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: filter.limit,
      skip: filter.offset,
    });
    return rows.map(toDeployment);
  }

  async find(id: string, tenantId?: string): Promise<Deployment | null> {
    const row = await this.prisma.deployment.findFirst({ where: { id, ...(tenantId ? { tenantId } : {}) } });
    return row && toDeployment(row);
  }
}
