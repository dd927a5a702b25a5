import type { z } from 'zod';
import type { RevisionLogPage } from '@platform/control-plane-data-access';
import type { DeploymentsContext } from './deployments-context';
import type { revisionLogsQuery } from './revision-log';
import { getRevision } from './get-revision.usecase';

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
