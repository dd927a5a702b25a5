import type { PrismaClient } from './generated/prisma/client';
import type { Deployment, DeploymentStatus } from './deployment';
import type { Revision, RevisionArtifact, RevisionStatus } from './revision';

export type DeploymentRow = Awaited<ReturnType<PrismaClient['deployment']['findUniqueOrThrow']>> & { secrets?: { name: string }[] };
export type RevisionRow = Awaited<ReturnType<PrismaClient['revision']['findUniqueOrThrow']>>;

/** Includes a deployment's secret names (sorted), which `toDeployment` reads. */
export const withSecretNames = { secrets: { select: { name: true }, orderBy: { name: 'asc' as const } } };

export function toDeployment(row: DeploymentRow): Deployment {
  return {
    id: row.id,
    tenantId: row.tenantId,
    organizationId: row.organizationId,
    name: row.name,
    source: row.source,
    sourceConfig: (row.sourceConfig ?? {}) as Record<string, unknown>,
    sourceRevisionConfig: (row.sourceRevisionConfig ?? {}) as Record<string, unknown>,
    status: row.status as DeploymentStatus,
    upstreamUrl: row.upstreamUrl,
    latestRevisionId: row.latestRevisionId,
    activeRevisionId: row.activeRevisionId,
    secretNames: (row.secrets ?? []).map((s) => s.name),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toRevision(row: RevisionRow): Revision {
  return {
    id: row.id,
    deploymentId: row.deploymentId,
    source: row.source,
    sourceConfig: (row.sourceConfig ?? {}) as Record<string, unknown>,
    sourceRevisionConfig: (row.sourceRevisionConfig ?? {}) as Record<string, unknown>,
    status: row.status as RevisionStatus,
    statusMessage: row.statusMessage,
    attempts: row.attempts,
    artifact: (row.artifact ?? null) as RevisionArtifact | null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
