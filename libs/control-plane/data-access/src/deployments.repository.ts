import { mapPrismaError } from '@platform/prisma';
import type { Prisma, PrismaClient } from './generated/prisma/client';
import type { Deployment, DeploymentChanges, DeploymentFilter, NewDeployment, SealedSecret } from './deployment';
import { toDeployment, toRevision, withSecretNames } from './deployment-rows';
import { IN_PROGRESS_STATUSES, type Revision, type RevisionFilter } from './revision';

type Tx = Prisma.TransactionClient;

const json = (value: Record<string, unknown>) => value as Prisma.InputJsonValue;

/** Deployments and revisions in the control plane's database (the API's reads and writes; the reconciler has its own). */
export class DeploymentsRepository {
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
      include: withSecretNames,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: filter.limit,
      skip: filter.offset,
    });
    return rows.map(toDeployment);
  }

  async find(id: string, tenantId?: string): Promise<Deployment | null> {
    const row = await this.prisma.deployment.findFirst({ where: { id, ...(tenantId ? { tenantId } : {}) }, include: withSecretNames });
    return row && toDeployment(row);
  }

  async replicaUrls(id: string): Promise<string[]> {
    const rows = await this.prisma.instance.findMany({
      where: { deploymentId: id, state: 'serving', url: { not: null } },
      select: { url: true },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map((r) => r.url as string);
  }

  async create(input: NewDeployment): Promise<{ deployment: Deployment; revision: Revision }> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        const created = await tx.deployment.create({
          data: {
            tenantId: input.tenantId,
            organizationId: input.organizationId,
            name: input.name,
            source: input.source,
            sourceConfig: json(input.sourceConfig),
            sourceRevisionConfig: json(input.sourceRevisionConfig),
            status: 'AWAITING_DATABASE',
            secrets: { create: input.secrets.map((s) => ({ name: s.name, value: s.sealed })) },
          },
        });
        return this.newRevision(tx, created.id, { sourceConfig: input.sourceConfig, sourceRevisionConfig: input.sourceRevisionConfig });
      });
    } catch (err) {
      throw mapPrismaError(err, { conflict: `A deployment named "${input.name}" already exists` });
    }
  }

  async update(id: string, changes: DeploymentChanges): Promise<{ deployment: Deployment; revision: Revision | null }> {
    return this.prisma.$transaction(async (tx) => {
      const updated = await tx.deployment.update({
        where: { id },
        data: {
          ...(changes.sourceConfig ? { sourceConfig: json(changes.sourceConfig) } : {}),
          ...(changes.sourceRevisionConfig ? { sourceRevisionConfig: json(changes.sourceRevisionConfig) } : {}),
        },
      });
      if (changes.secrets) {
        await tx.deploymentSecret.deleteMany({ where: { deploymentId: id } });
        await tx.deploymentSecret.createMany({ data: changes.secrets.map((s) => ({ deploymentId: id, name: s.name, value: s.sealed })) });
      }
      if (!changes.newRevision) return { deployment: toDeployment(await tx.deployment.findUniqueOrThrow({ where: { id }, include: withSecretNames })), revision: null };
      return this.newRevision(tx, id, {
        sourceConfig: updated.sourceConfig as Record<string, unknown>,
        sourceRevisionConfig: updated.sourceRevisionConfig as Record<string, unknown>,
      });
    });
  }

  addRevision(deploymentId: string, config: { sourceConfig: Record<string, unknown>; sourceRevisionConfig: Record<string, unknown> }) {
    return this.prisma.$transaction(async (tx) => {
      await tx.deployment.update({ where: { id: deploymentId }, data: { sourceRevisionConfig: json(config.sourceRevisionConfig) } });
      return this.newRevision(tx, deploymentId, config);
    });
  }

  async markDeleting(id: string): Promise<void> {
    await this.prisma.deployment.update({ where: { id }, data: { status: 'AWAITING_DELETE' } });
  }

  async sealedSecrets(id: string): Promise<SealedSecret[]> {
    const rows = await this.prisma.deploymentSecret.findMany({ where: { deploymentId: id }, orderBy: { name: 'asc' } });
    return rows.map((r) => ({ name: r.name, sealed: r.value }));
  }

  async listRevisions(deploymentId: string, filter: RevisionFilter): Promise<Revision[]> {
    const rows = await this.prisma.revision.findMany({
      where: { deploymentId, ...(filter.statuses?.length ? { status: { in: filter.statuses } } : {}) },
      orderBy: { seq: 'desc' },
      take: filter.limit,
      skip: filter.offset,
    });
    return rows.map(toRevision);
  }

  async findRevision(deploymentId: string, revisionId: string): Promise<Revision | null> {
    const row = await this.prisma.revision.findFirst({ where: { id: revisionId, deploymentId } });
    return row && toRevision(row);
  }

  async interruptRevision(revisionId: string, message: string): Promise<Revision | null> {
    const { count } = await this.prisma.revision.updateMany({
      where: { id: revisionId, status: { in: [...IN_PROGRESS_STATUSES] } },
      data: { status: 'INTERRUPTED', statusMessage: message },
    });
    return count ? toRevision(await this.prisma.revision.findUniqueOrThrow({ where: { id: revisionId } })) : null;
  }

  private async newRevision(tx: Tx, deploymentId: string, config: { sourceConfig: Record<string, unknown>; sourceRevisionConfig: Record<string, unknown> }) {
    const deployment = await tx.deployment.findUniqueOrThrow({ where: { id: deploymentId } });
    const revision = await tx.revision.create({
      data: {
        deploymentId,
        source: deployment.source,
        sourceConfig: json(config.sourceConfig),
        sourceRevisionConfig: json(config.sourceRevisionConfig),
        status: 'CREATING',
      },
    });
    const updated = await tx.deployment.update({ where: { id: deploymentId }, data: { latestRevisionId: revision.id }, include: withSecretNames });
    return { deployment: toDeployment(updated), revision: toRevision(revision) };
  }
}
