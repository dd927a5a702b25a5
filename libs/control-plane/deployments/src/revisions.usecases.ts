import type { z } from 'zod';
import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import { type Deployment, isInProgress, type Revision, type RevisionFilter, type RevisionLogPage } from '@platform/control-plane-data-access';
import type { DeploymentsContext } from './deployments-context';
import { getDeployment } from './deployments.usecases';
import type { revisionLogsQuery } from './revision-log';

export async function listRevisions(ctx: DeploymentsContext, tenantId: string, deploymentId: string, filter: RevisionFilter) {
  const deployment = await getDeployment(ctx.store, tenantId, deploymentId);
  const resources = await ctx.store.listRevisions(deployment.id, filter);
  return { resources, offset: filter.offset + resources.length };
}

export async function getRevision(ctx: DeploymentsContext, tenantId: string, deploymentId: string, revisionId: string): Promise<Revision> {
  const deployment = await getDeployment(ctx.store, tenantId, deploymentId);
  const revision = isUuid(revisionId) ? await ctx.store.findRevision(deployment.id, revisionId.toLowerCase()) : null;
  if (!revision) throw new NotFoundError(`Revision ${revisionId} not found`);
  return revision;
}

/** A new revision built from that revision's configuration (its recorded commit, when it has one). */
export async function redeployRevision(ctx: DeploymentsContext, tenantId: string, deploymentId: string, revisionId: string): Promise<Deployment> {
  const revision = await getRevision(ctx, tenantId, deploymentId, revisionId);
  const deployment = await getDeployment(ctx.store, tenantId, deploymentId);
  if (deployment.status === 'AWAITING_DELETE') throw new InputError(`Deployment ${deploymentId} is being deleted`);
  const created = await ctx.store.addRevision(revision.deploymentId, {
    sourceConfig: deployment.sourceConfig,
    sourceRevisionConfig: revision.sourceRevisionConfig,
  });
  ctx.notify?.();
  return created.deployment;
}

/** Stops a revision being built or deployed: it ends INTERRUPTED and the reconciler abandons its work. */
export async function interruptRevision(ctx: DeploymentsContext, tenantId: string, deploymentId: string, revisionId: string): Promise<Revision> {
  const revision = await getRevision(ctx, tenantId, deploymentId, revisionId);
  if (!isInProgress(revision.status)) throw new ConflictError(`Revision ${revision.id} is ${revision.status}; only a revision in progress can be interrupted`);
  const interrupted = await ctx.store.interruptRevision(revision.id, 'Interrupted by request');
  if (!interrupted) {
    const now = await ctx.store.findRevision(revision.deploymentId, revision.id);
    throw new ConflictError(`Revision ${revision.id} is ${now?.status ?? 'gone'}; only a revision in progress can be interrupted`);
  }
  ctx.notify?.();
  return interrupted;
}

/** A page of a revision's log (build output, then how its Agent Server started), after `offset` when given. */
export async function listRevisionLogs(
  ctx: DeploymentsContext,
  tenantId: string,
  deploymentId: string,
  revisionId: string,
  query: z.infer<typeof revisionLogsQuery>,
): Promise<RevisionLogPage> {
  const revision = await getRevision(ctx, tenantId, deploymentId, revisionId);
  return ctx.logs.list(revision.id, { type: query.type, after: query.offset === undefined ? undefined : BigInt(query.offset), limit: query.limit, order: query.order });
}
