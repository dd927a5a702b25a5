import { DatabaseLease } from './database-lease';
import type { Deployment } from './deployment';
import { toDeployment, toRevision, withSecretNames, type DeploymentRow } from './deployment-rows';
import type { Prisma, PrismaClient } from './generated/prisma/client';
import { FAILED_STATUSES, IN_PROGRESS_STATUSES, type Revision, type RevisionArtifact, type RevisionStatus } from './revision';

/** A deployment with the reconciler-only fields. */
export interface DeploymentRecord extends Deployment {
  /** Sealed location of its database. */
  database: string | null;
  tracingKeyId: string | null;
  tracingKey: string | null;
}

export interface RevisionUpdate {
  statusMessage?: string | null;
  attempts?: number;
  artifact?: RevisionArtifact;
  sourceRevisionConfig?: Record<string, unknown>;
}

const json = (v: unknown) => v as Prisma.InputJsonValue;
function toRecord(row: DeploymentRow): DeploymentRecord {
  return { ...toDeployment(row), database: row.database, tracingKeyId: row.tracingKeyId, tracingKey: row.tracingKey };
}

/** The lease whose holder is the reconciler's leader (a row of `leases`). */
export const RECONCILER_LEASE = 'reconciler';

/** What the reconciler reads and writes; every write is fenced by the leadership lease. */
export class ReconcilerRepository {
  constructor(
    private readonly prisma: PrismaClient,
    readonly lease: DatabaseLease,
  ) {}

  /** The reconciler's records for the replica `holder`, fenced by the `reconciler` lease. */
  static forHolder(prisma: PrismaClient, holder: string, leaseTtlMs: number): ReconcilerRepository {
    return new ReconcilerRepository(prisma, new DatabaseLease(prisma, RECONCILER_LEASE, holder, leaseTtlMs));
  }

  /**
   * Throws LeaseLostError unless this replica can still count on its leadership: called before what the database
   * cannot fence (the driver's calls to Kubernetes or to local processes).
   */
  assertLeader(): void {
    this.lease.assertHeld();
  }

  /** Deployments with work: a database to make, a deletion, or a revision in progress. */
  async deploymentsWithWork(): Promise<DeploymentRecord[]> {
    const rows = await this.prisma.deployment.findMany({
      where: {
        OR: [{ status: { in: ['AWAITING_DATABASE', 'AWAITING_DELETE'] } }, { revisions: { some: { status: { in: [...IN_PROGRESS_STATUSES] } } } }],
      },
      include: withSecretNames,
      orderBy: { createdAt: 'asc' },
    });
    return rows.map(toRecord);
  }

  async deployment(id: string): Promise<DeploymentRecord | null> {
    const row = await this.prisma.deployment.findUnique({ where: { id }, include: withSecretNames });
    return row && toRecord(row);
  }

  /** Deployments serving an active revision (what the driver must keep running), with that revision. */
  async activeDeployments(): Promise<{ deployment: DeploymentRecord; revision: Revision }[]> {
    const rows = await this.prisma.deployment.findMany({
      where: { activeRevisionId: { not: null }, status: { not: 'AWAITING_DELETE' } },
      include: withSecretNames,
    });
    const out: { deployment: DeploymentRecord; revision: Revision }[] = [];
    for (const row of rows) {
      const revision = await this.prisma.revision.findUnique({ where: { id: row.activeRevisionId as string } });
      if (revision?.artifact) out.push({ deployment: toRecord(row), revision: toRevision(revision) });
    }
    return out;
  }

  async inProgressRevisions(deploymentId: string): Promise<Revision[]> {
    const rows = await this.prisma.revision.findMany({
      where: { deploymentId, status: { in: [...IN_PROGRESS_STATUSES] } },
      orderBy: { seq: 'asc' },
    });
    return rows.map(toRevision);
  }

  async sealedSecrets(deploymentId: string): Promise<{ name: string; sealed: string }[]> {
    const rows = await this.prisma.deploymentSecret.findMany({ where: { deploymentId }, orderBy: { name: 'asc' } });
    return rows.map((r) => ({ name: r.name, sealed: r.value }));
  }

  async revision(id: string): Promise<Revision | null> {
    const row = await this.prisma.revision.findUnique({ where: { id } });
    return row && toRevision(row);
  }

  /** Compare-and-set of a revision's status: false when it is no longer in `from` (interrupted, superseded). */
  transition(revision: Revision, from: RevisionStatus[], to: RevisionStatus, update: RevisionUpdate = {}): Promise<boolean> {
    return this.lease.fenced(async (tx) => {
      const { count } = await tx.revision.updateMany({
        where: { id: revision.id, status: { in: from } },
        data: {
          status: to,
          ...(update.statusMessage !== undefined ? { statusMessage: update.statusMessage } : {}),
          ...(update.attempts !== undefined ? { attempts: update.attempts } : {}),
          ...(update.artifact ? { artifact: json(update.artifact) } : {}),
          ...(update.sourceRevisionConfig ? { sourceRevisionConfig: json(update.sourceRevisionConfig) } : {}),
        },
      });
      if (count !== 1) return false;
      // The deployment follows its live revision: with none serving, it reads its latest revision's failure.
      if (FAILED_STATUSES.includes(to)) {
        await tx.deployment.updateMany({
          where: { id: revision.deploymentId, activeRevisionId: null, latestRevisionId: revision.id, status: { in: ['READY', ...FAILED_STATUSES] } },
          data: { status: to },
        });
      }
      return true;
    });
  }

  /** The revision now serves: DEPLOYED, and the deployment points at it (unless a newer revision already does). */
  promote(revision: Revision, upstreamUrl: string, message: string | null): Promise<boolean> {
    return this.lease.fenced(async (tx) => {
      const { count } = await tx.revision.updateMany({
        where: { id: revision.id, status: 'DEPLOYING' },
        data: { status: 'DEPLOYED', statusMessage: message },
      });
      if (count !== 1) return false;
      const deployment = await tx.deployment.findUniqueOrThrow({ where: { id: revision.deploymentId } });
      const sha = revision.sourceRevisionConfig.repo_commit_sha;
      const current = deployment.sourceRevisionConfig as Record<string, unknown>;
      // The revision it takes over from served until now: it ends REPLACED rather than reading DEPLOYED forever.
      if (deployment.activeRevisionId && deployment.activeRevisionId !== revision.id) {
        await tx.revision.updateMany({
          where: { id: deployment.activeRevisionId, status: 'DEPLOYED' },
          data: { status: 'REPLACED', statusMessage: `Replaced by revision ${revision.id}` },
        });
      }
      await tx.deployment.update({
        where: { id: revision.deploymentId },
        data: {
          activeRevisionId: revision.id,
          upstreamUrl,
          ...((FAILED_STATUSES as readonly string[]).includes(deployment.status) ? { status: 'READY' } : {}),
          // The deployment shows the commit it serves, when the revision it serves is its latest configuration.
          ...(deployment.latestRevisionId === revision.id && sha ? { sourceRevisionConfig: json({ ...current, repo_commit_sha: sha }) } : {}),
        },
      });
      return true;
    });
  }

  updateDeployment(id: string, data: Partial<Pick<DeploymentRecord, 'status' | 'database' | 'tracingKeyId' | 'tracingKey' | 'upstreamUrl'>>): Promise<void> {
    return this.lease.fenced(async (tx) => {
      await tx.deployment.updateMany({ where: { id }, data });
    });
  }

  /** Records the provisioned database (and tracing key); READY only if no deletion was asked meanwhile. */
  provisioned(id: string, data: Pick<DeploymentRecord, 'database'> & Partial<Pick<DeploymentRecord, 'tracingKeyId' | 'tracingKey'>>): Promise<void> {
    return this.lease.fenced(async (tx) => {
      await tx.deployment.updateMany({ where: { id }, data });
      await tx.deployment.updateMany({ where: { id, status: 'AWAITING_DATABASE' }, data: { status: 'READY' } });
    });
  }

  removeDeployment(id: string): Promise<void> {
    return this.lease.fenced(async (tx) => {
      await tx.deployment.deleteMany({ where: { id, status: 'AWAITING_DELETE' } });
    });
  }
}
