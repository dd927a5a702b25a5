import { ConflictError } from '@platform/errors';
import { isInProgress, type Revision } from '@platform/control-plane-data-access';
import type { DeploymentsContext } from './deployments-context';
import { getRevision } from './get-revision.usecase';

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
